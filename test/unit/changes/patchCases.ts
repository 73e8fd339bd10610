// Patches for the differential suite, from a seeded PRNG (never Math.random or the clock, so a seed
// names its patches): real `git diff`s of random changes to a random tree, and hand-mangled variants.
import { chmodSync, lstatSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Prng } from '../../server/prng';
import { commitAll, git, write } from './scratchRepo';

/** The test server's seeded PRNG, counted from zero: the generator asks for "one of n" everywhere. */
export class Random extends Prng {
  /** An integer in [0, n). */
  below(n: number): number {
    return this.int(0, n - 1);
  }
}

export interface PatchCase {
  /** What was generated and how it was mangled, for a failure's message. */
  label: string;
  patch: Buffer;
}

/** A repository whose `main` holds the base tree, and the cases made against it. */
export interface CaseBatch {
  repo: string;
  base: string;
  cases: PatchCase[];
}

type Kind = 'text' | 'binary' | 'empty' | 'link';

// Names git quotes (a tab, a quote, non-ASCII), and ones that look like the `diff --git` line's own parts.
const FOLDERS = ['', 'src/', 'dir with space/', 'naïve/', 'deep/er/', 'x b/'];
const STEMS = ['a', 'file 1', 'ü-ñ', 'quote"d', 'plain', 'back b', 'dash-', 'ファイル', 'b', 'c', 'd', 'e'];
// Apply refuses a name with a control character (deliberately; see gitParity.ts): rarer, or it would
// hide the rest of the patch.
const RARE_STEM = 'tab\there';
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'one', 'two', '', '  indented', 'end;', 'x'];

function randomName(random: Random, taken: ReadonlySet<string>): string {
  for (;;) {
    const stem = random.chance(0.03) ? RARE_STEM : random.pick(STEMS);
    const name = `${random.pick(FOLDERS)}${stem}${random.below(40)}${random.pick(['.txt', '.bin', '', '.md'])}`;
    // Not a folder of a file the tree has, nor a file under one of its files.
    const clashes = [...taken].some((path) => path.startsWith(`${name}/`) || name.startsWith(`${path}/`));
    if (!taken.has(name) && !clashes) return name;
  }
}

function randomText(random: Random): Buffer {
  const lines = Array.from(
    { length: 1 + random.below(30) },
    () => `${random.pick(WORDS)} ${random.below(6)}`,
  );
  const crlf = random.chance(0.15);
  let text = lines.join(crlf ? '\r\n' : '\n');
  if (!random.chance(0.25)) text += crlf ? '\r\n' : '\n';
  return Buffer.from(text);
}

function randomBinary(random: Random): Buffer {
  const bytes = Buffer.alloc(1 + random.below(400));
  for (let i = 0; i < bytes.length; i++) bytes[i] = random.chance(0.3) ? 0 : random.below(256);
  return bytes;
}

/** A text edited in a few places: lines replaced, inserted, removed, the final newline toggled. */
function editText(random: Random, before: Buffer): Buffer {
  const lines = before.toString('latin1').split('\n');
  const edits = 1 + random.below(4);
  for (let i = 0; i < edits; i++) {
    const at = random.below(lines.length + 1);
    const what = random.below(3);
    if (what === 0) lines.splice(at, 0, `${random.pick(WORDS)} new ${random.below(9)}`);
    else if (what === 1 && lines.length > 1) lines.splice(at, 1);
    else lines[Math.min(at, lines.length - 1)] = `${random.pick(WORDS)} changed ${random.below(9)}`;
  }
  let text = lines.join('\n');
  if (random.chance(0.25)) text = text.endsWith('\n') ? text.slice(0, -1) : `${text}\n`;
  return Buffer.from(text, 'latin1');
}

function editBinary(random: Random, before: Buffer): Buffer {
  const after = Buffer.from(before);
  for (let i = 0; i < 1 + random.below(5); i++)
    if (after.length > 0) after[random.below(after.length)] = random.below(256);
  return random.chance(0.2) ? Buffer.concat([after, randomBinary(random)]) : after;
}

interface TreeFile {
  kind: Kind;
  executable: boolean;
  bytes: Buffer;
}

function writeFile(repo: string, path: string, file: TreeFile): void {
  const full = join(repo, path);
  rmSync(full, { force: true });
  if (file.kind === 'link') {
    write(repo, path, '');
    unlinkSync(full);
    symlinkSync(file.bytes.toString('utf8'), full);
    return;
  }
  write(repo, path, file.bytes);
  chmodSync(full, file.executable ? 0o755 : 0o644);
}

function randomFile(random: Random, tree: ReadonlyMap<string, TreeFile>): TreeFile {
  const kind = random.pick<Kind>(['text', 'text', 'text', 'text', 'binary', 'empty', 'link']);
  const executable = kind !== 'link' && random.chance(0.15);
  if (kind === 'text') return { kind, executable, bytes: randomText(random) };
  if (kind === 'binary') return { kind, executable, bytes: randomBinary(random) };
  if (kind === 'empty') return { kind, executable, bytes: Buffer.alloc(0) };
  // A link to a file of the tree, or to one that is not there: it stays in the repository either way.
  const target = tree.size > 0 && random.chance(0.7) ? random.pick([...tree.keys()]) : 'missing.txt';
  const depth = random.below(2);
  return { kind, executable: false, bytes: Buffer.from(`${'sub/../'.repeat(depth)}${target}`) };
}

const DIFF_OPTIONS: readonly (readonly string[])[] = [
  ['--no-renames'],
  ['-M'],
  ['-M', '-C'],
  ['-M', '-C', '--find-copies-harder'],
  ['-M30%'],
];

/**
 * A base tree of `files` random files committed in a new repository under `folder`, and `count` cases:
 * each a random change to it as `git diff --cached` writes it, half of them mangled by hand.
 */
export function makeBatch(folder: string, random: Random, files: number, count: number): CaseBatch {
  const repo = join(folder, 'generated');
  git(folder, ['init', '-q', repo]);
  const tree = new Map<string, TreeFile>();
  for (let i = 0; i < files; i++) {
    const path = randomName(random, new Set(tree.keys()));
    const file = randomFile(random, tree);
    tree.set(path, file);
    writeFile(repo, path, file);
  }
  commitAll(repo, 'base');
  const base = git(repo, ['rev-parse', 'HEAD']).toString('utf8').trim();
  const cases: PatchCase[] = [];
  for (let i = 0; i < count; i++) {
    git(repo, ['reset', '-q', '--hard', base]);
    git(repo, ['clean', '-fdxq']);
    const steps = changeTree(repo, random, tree);
    git(repo, ['add', '-A']);
    const options = random.pick(DIFF_OPTIONS);
    const context = random.chance(0.1) ? 0 : 1 + random.below(3);
    const config = random.chance(0.3) ? ['-c', 'core.quotePath=false'] : [];
    const binary = random.chance(0.95) ? ['--binary'] : [];
    const args = [...config, 'diff', '--cached', ...binary, ...options, `-U${context}`, base];
    let patch = git(repo, args);
    let label = `${steps.join(', ')}; git ${args.slice(0, -1).join(' ')}`;
    if (random.chance(0.5)) {
      const mangled = mangle(random, patch);
      patch = mangled.patch;
      label += `; mangled: ${mangled.how}`;
    }
    cases.push({ label, patch });
  }
  git(repo, ['reset', '-q', '--hard', base]);
  git(repo, ['clean', '-fdxq']);
  return { repo, base, cases };
}

/** A few random changes to the working tree of `repo` (at the base `tree`); what was done, in words. */
function changeTree(repo: string, random: Random, tree: ReadonlyMap<string, TreeFile>): string[] {
  const steps: string[] = [];
  const paths = [...tree.keys()];
  const taken = new Set(paths);
  const touched = new Set<string>();
  const changes = 1 + random.below(6);
  for (let i = 0; i < changes; i++) {
    const path = random.pick(paths);
    const file = tree.get(path);
    if (!file || touched.has(path)) continue;
    touched.add(path);
    const what = random.below(9);
    const full = join(repo, path);
    if (what <= 2) {
      const bytes =
        file.kind === 'text'
          ? editText(random, file.bytes)
          : file.kind === 'binary'
            ? editBinary(random, file.bytes)
            : file.kind === 'empty'
              ? randomText(random)
              : Buffer.from(`${file.bytes.toString('utf8')}.changed`);
      writeFile(repo, path, { ...file, bytes });
      steps.push(`edit ${JSON.stringify(path)}`);
    } else if (what === 3) {
      rmSync(full, { force: true });
      steps.push(`delete ${JSON.stringify(path)}`);
    } else if (what === 4 || what === 5) {
      const target = randomName(random, taken);
      taken.add(target);
      const bytes = file.kind === 'text' && random.chance(0.5) ? editText(random, file.bytes) : file.bytes;
      if (what === 4) rmSync(full, { force: true });
      writeFile(repo, target, { ...file, bytes });
      steps.push(`${what === 4 ? 'rename' : 'copy'} ${JSON.stringify(path)} to ${JSON.stringify(target)}`);
    } else if (what === 6 && file.kind !== 'link') {
      chmodSync(full, lstatSync(full).mode & 0o100 ? 0o644 : 0o755);
      steps.push(`chmod ${JSON.stringify(path)}`);
    } else if (what === 7) {
      const replacement = randomFile(random, tree);
      writeFile(repo, path, replacement);
      steps.push(`replace ${JSON.stringify(path)} by a ${replacement.kind}`);
    } else {
      const added = randomName(random, taken);
      taken.add(added);
      const created = randomFile(random, tree);
      writeFile(repo, added, created);
      steps.push(`add ${JSON.stringify(added)} (${created.kind})`);
    }
  }
  return steps;
}

// ---------------------------------------------------------------------------------------------
// Mangling: what a hostile or careless writer does to a patch git wrote

const GARBAGE = [
  'Some notes the agent wrote',
  '',
  '-- ',
  '2.39.5',
  '\\ a stray marker line',
  '\\ x',
  '@@ not a hunk',
  '@@ -x +y @@',
  'diff --git',
  'index 0000000..1111111',
  '+++ b/not-after-minus',
  'From 1234 Mon Sep 17 00:00:00 2001',
  '\r',
];

/** A marker line `\ …` of `length` bytes with its newline (at least 3). */
function marker(length: number): string {
  const text = '\\ No newline at end of file, really';
  return `${text.slice(0, Math.max(2, length - 1)).padEnd(length - 1, '.')}\n`;
}

function mangle(random: Random, patch: Buffer): { patch: Buffer; how: string } {
  const lines = patch.toString('latin1').split(/(?<=\n)/);
  const hunkLines = lines.flatMap((line, index) =>
    /^[ +-]/.test(line) && !/^(---|\+\+\+) /.test(line) ? [index] : [],
  );
  const headers = lines.flatMap((line, index) => (line.startsWith('diff --git ') ? [index] : []));
  const markers = lines.flatMap((line, index) => (line.startsWith('\\ ') ? [index] : []));
  const binaryHunks = lines.flatMap((line, index) => (/^(literal|delta) /.test(line) ? [index] : []));
  const what = random.below(16);
  const join = () => Buffer.from(lines.join(''), 'latin1');
  if (what <= 1) {
    // The case the issue found: a short marker at the very end, and text after it of a few bytes.
    const length = 3 + random.below(15);
    const after =
      random.below(3) === 0 ? '' : 'z'.repeat(random.below(14)) + (random.chance(0.5) ? '\n' : '');
    return {
      patch: Buffer.concat([patch, Buffer.from(marker(length) + after)]),
      how: `a ${length}-byte marker at the end, then ${JSON.stringify(after)}`,
    };
  }
  const hunkEnds = hunkLines.filter((index) => !/^[ +\\-]/.test(lines[index + 1] ?? ''));
  if (what >= 12 && hunkEnds.length > 0) {
    // The case: a marker of any length after a hunk's last line, more of the patch after it.
    const at = random.pick(hunkEnds);
    const length = 3 + random.below(15);
    lines.splice(at + 1, 0, marker(length));
    return { patch: join(), how: `a ${length}-byte marker after the hunk ending at line ${at + 1}` };
  }
  if (what === 2 && hunkLines.length > 0) {
    const at = random.pick(hunkLines);
    const length = 3 + random.below(15);
    lines.splice(at + 1, 0, marker(length));
    return { patch: join(), how: `a ${length}-byte marker after line ${at + 1}` };
  }
  if (what === 3 && markers.length > 0) {
    const at = random.pick(markers);
    const length = 3 + random.below(15);
    lines[at] = marker(length);
    return { patch: join(), how: `the marker at line ${at + 1} made ${length} bytes` };
  }
  if (what === 4 && markers.length > 0) {
    const at = random.pick(markers);
    lines.splice(at, 1);
    return { patch: join(), how: `the marker at line ${at + 1} removed` };
  }
  if (what === 5) {
    const at = headers.length > 0 && random.chance(0.8) ? random.pick(headers) : lines.length;
    const garbage = Array.from({ length: 1 + random.below(3) }, () => `${random.pick(GARBAGE)}\n`);
    lines.splice(at, 0, ...garbage);
    return { patch: join(), how: `${JSON.stringify(garbage.join(''))} before line ${at + 1}` };
  }
  if (what === 6 && patch.length > 1) {
    const cut = patch.length - 1 - random.below(Math.min(patch.length - 1, 40));
    return { patch: patch.subarray(0, cut), how: `cut to ${cut} of ${patch.length} bytes` };
  }
  if (what === 7) {
    const at = random.below(lines.length);
    lines[at] = (lines[at] ?? '').replace(/\n$/, '\r\n');
    return { patch: join(), how: `line ${at + 1} ends in CRLF` };
  }
  if (what === 9 && binaryHunks.length > 0) {
    // After a binary hunk's closing blank line: a line git takes for the start of a reverse hunk.
    const at = random.pick(binaryHunks);
    const blank = lines.indexOf('\n', at);
    const start = random.pick(['literal x\n', 'delta 3\n', 'literal 0\n', 'literal 12abc\n']);
    lines.splice(blank < 0 ? lines.length : blank + 1, 0, start);
    return { patch: join(), how: `${JSON.stringify(start)} after the binary hunk at line ${at + 1}` };
  }
  if (what === 10 && binaryHunks.length > 0) {
    // A data line of a binary hunk changed: its length byte, a character, or the line removed.
    const at = random.pick(binaryHunks) + 1;
    const line = lines[at] ?? '';
    const how = random.below(3);
    if (how === 0) lines[at] = `${random.pick(['A', 'z', '#'])}${line.slice(1)}`;
    else if (how === 1) lines[at] = `${line.slice(0, 3)}${random.pick(['~', '0', '{'])}${line.slice(4)}`;
    else lines.splice(at, 1);
    return {
      patch: join(),
      how: `the binary data line ${at + 1} ${['relabelled', 'changed', 'removed'][how] ?? ''}`,
    };
  }
  if (what === 11 && headers.length > 0) {
    // One file's section twice: git applies the second to the first's result, or refuses.
    const which = random.below(headers.length);
    const start = headers[which] ?? 0;
    const section = lines.slice(start, headers[which + 1] ?? lines.length);
    lines.splice(start + section.length, 0, ...section);
    return { patch: join(), how: `the section at line ${start + 1} twice` };
  }
  const header = lines.findIndex((line) => line.startsWith('@@ -'));
  if (header >= 0) {
    const line = lines[header] ?? '';
    lines[header] = line.replace(/\+(\d+)(,(\d+))? @@/, (_all, start: string, _comma, count?: string) => {
      const changed = Math.max(0, Number(count ?? '1') + random.pick([-1, 1]));
      return `+${start},${changed} @@`;
    });
    return { patch: join(), how: `the hunk header at line ${header + 1} miscounted` };
  }
  return { patch, how: 'nothing to mangle' };
}
