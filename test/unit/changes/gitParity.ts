// The differential oracle: a patch applied by the project (applyPatch, plain Node, real git under it)
// and by plain `git apply`, each in its own clone of the same base; the two trees compared byte for byte.
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ApplyRefusedError } from '../../../src/changes/applyRefused';
import { applyPatch, type ApplyResult } from '../../../src/changes/patchApply';
import { git, gitWithInput } from './scratchRepo';

/** Every path under `repo` but .git: a file's mode and bytes, a link's target, a folder's name. */
export function treeWithModes(repo: string): Map<string, string> {
  const tree = new Map<string, string>();
  for (const entry of readdirSync(repo, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const relative = path.slice(repo.length + 1);
    if (relative === '.git' || relative.startsWith('.git/')) continue;
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) tree.set(relative, `link ${readlinkSync(path)}`);
    else if (stat.isDirectory()) tree.set(relative, 'folder');
    else
      tree.set(
        relative,
        `${(stat.mode & 0o111) !== 0 ? 'executable' : 'file'} ${readFileSync(path).toString('base64')}`,
      );
  }
  return tree;
}

/** How the two trees differ, path by path; empty when they are the same. */
export function treeDifferences(ours: Map<string, string>, theirs: Map<string, string>): string[] {
  const paths = [...new Set([...ours.keys(), ...theirs.keys()])].sort();
  return paths
    .filter((path) => ours.get(path) !== theirs.get(path))
    .map((path) => `${JSON.stringify(path)}: ${describeDifference(ours.get(path), theirs.get(path))}`);
}

function describeDifference(ours: string | undefined, theirs: string | undefined): string {
  if (ours === undefined || theirs === undefined)
    return `ours ${ours ?? 'absent'}, git ${theirs ?? 'absent'}`;
  const [ourKind = '', ourBytes = ''] = ours.split(' ');
  const [theirKind = '', theirBytes = ''] = theirs.split(' ');
  if (ourKind !== theirKind || ourKind === 'link') return `ours ${ours}, git ${theirs}`;
  const a = Buffer.from(ourBytes, 'base64');
  const b = Buffer.from(theirBytes, 'base64');
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at++;
  return `${ourKind}s of ${a.length} and ${b.length} bytes (ours, git), first differing at byte ${at}`;
}

/** Both applied it, both refused it, the project merged it as `git apply --3way` does, or refused it on purpose. */
export type Outcome = 'applied' | 'refused' | 'merged' | 'deliberate';

export type Agreement = { agrees: true; outcome: Outcome } | { agrees: false; why: string };

/** Two clones of `repo` at `base`: one the project applies to, one plain git applies to. */
export class ParityRepos {
  readonly ours: string;
  readonly theirs: string;

  constructor(
    folder: string,
    repo: string,
    private readonly base: string,
  ) {
    this.ours = join(folder, 'ours');
    this.theirs = join(folder, 'theirs');
    git(folder, ['clone', '-q', repo, this.ours]);
    git(folder, ['clone', '-q', repo, this.theirs]);
  }

  private reset(): void {
    for (const repo of [this.ours, this.theirs]) {
      git(repo, ['reset', '-q', '--hard', this.base]);
      git(repo, ['clean', '-fdxq']);
    }
  }

  /**
   * Applies `patch` both ways and compares. Where git refuses, the project must refuse and change
   * nothing; where git applies, the project must apply the same bytes and modes. The project's one
   * deliberate difference: a file git refuses but a clean 3-way merge applies is merged (Apply merges),
   * and then the tree is compared with `git apply --3way`'s.
   */
  async compare(patch: Buffer): Promise<Agreement> {
    this.reset();
    const before = treeWithModes(this.ours);
    let result: ApplyResult | undefined;
    let refusal: ApplyRefusedError | undefined;
    let refusalText = '';
    try {
      result = await applyPatch(this.ours, patch);
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      if (error instanceof ApplyRefusedError) refusal = error;
      refusalText = error instanceof ApplyRefusedError ? `${error.reason}: ${error.message}` : error.message;
    }
    const merged = (result?.merged.length ?? 0) > 0 || (result?.conflicted.length ?? 0) > 0;
    const applied = gitWithInput(this.theirs, ['apply', ...(merged ? ['--3way'] : [])], patch);
    const ours = treeWithModes(this.ours);
    const theirs = treeWithModes(this.theirs);
    if (applied.exitCode !== 0) {
      if (result)
        return {
          agrees: false,
          why: `git refused (${firstLine(applied.stderr)}) but the project applied it`,
        };
      const changed = treeDifferences(ours, before);
      if (changed.length > 0)
        return { agrees: false, why: `the refusal changed files: ${changed.join('; ')}` };
      return { agrees: true, outcome: 'refused' };
    }
    if (!result) {
      const changed = treeDifferences(ours, before);
      if (changed.length > 0)
        return { agrees: false, why: `the refusal changed files: ${changed.join('; ')}` };
      if (refusal && deliberateRefusal(refusal, applied.stderr, theirs)) {
        return { agrees: true, outcome: 'deliberate' };
      }
      return { agrees: false, why: `git applied it but the project refused (${refusalText})` };
    }
    const differences = treeDifferences(ours, theirs);
    if (differences.length > 0) return { agrees: false, why: `the trees differ: ${differences.join('; ')}` };
    return { agrees: true, outcome: merged ? 'merged' : 'applied' };
  }
}

// git stops reading at a corrupt binary section and says so, yet applies the sections before it and
// exits 0 (apply.c: parse_chunk returns -1, not -128): the project refuses such a patch whole.
const BROKEN_BINARY = /^error: (corrupt|unrecognized) binary patch at line/m;
// eslint-disable-next-line no-control-regex -- the characters pathRules.ts refuses
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/u;

/**
 * Whether `refusal` is one the project makes on purpose where git applies, checked against the patch's
 * effect rather than taken at its word: a patch git itself called broken (BROKEN_BINARY), refused whole;
 * or every file it names has a control character (a tab, say) in a name, or is a link in git's result,
 * one the checks cannot prove stays in the repository and off the paths the change writes
 * (pathRules.ts, patchGuard.ts).
 */
function deliberateRefusal(
  refusal: ApplyRefusedError,
  gitSaid: string,
  theirs: ReadonlyMap<string, string>,
): boolean {
  if (refusal.reason !== 'unsafe' || refusal.refusals.length === 0) return false;
  if (BROKEN_BINARY.test(gitSaid)) return refusal.refusals.some((refused) => refused.path === '');
  return refusal.refusals.every((refused) => {
    if (refused.path === '') return false;
    // The reason names the file (a rename's source may be the one), so the name is checked there too.
    if (/control character/.test(refused.reason))
      return CONTROL_CHARACTER.test(refused.path + refused.reason);
    return theirs.get(refused.path)?.startsWith('link ') === true;
  });
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}
