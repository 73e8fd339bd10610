import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildHandoff, type Handoff } from '../../../src/changes/handoffBundle';
import type { HandoffKind } from '../../../src/changes/handoffManifest';
import {
  parseRecordOutput,
  parseVerifyOutput,
  recordCommand,
  replayScript,
  VERIFY_COMMAND,
} from '../../../src/changes/handoffReplay';
import {
  CANARY,
  filesWithModes,
  gitFile,
  makeFixture,
  RENAMED_COMMITTED,
  RENAMED_STAGED,
  runScript,
  serverGitDelta,
  TICKED,
  UNTICKED,
  type Fixture,
} from './handoffFixture';
import {
  assertUnchanged,
  differingPaths,
  git,
  gitText,
  gitWithInput,
  repoState,
  treeBytes,
  write,
} from './scratchRepo';

// The hand-off replayed as a sandbox would: the parts copied to a folder of the "sandbox", the described
// commands run with sh in a fresh clone at the remote's tip (or an empty folder), every file compared.

/** What the sandbox must hold: the user's files but the unticked one, the ignored one and the submodule's. */
const handedOver = (path: string) => path === UNTICKED || path === '.env' || path.startsWith('lib/');

describe('changes: a hand-off of local work, replayed in a sandbox', function () {
  let tmp: string;
  let fixture: Fixture;
  let sandboxes = 0;
  const built: Handoff[] = [];

  before(function () {
    tmp = mkdtempSync(join(tmpdir(), 'openhands-handoff-'));
    fixture = makeFixture(tmp);
  });
  after(function () {
    for (const handoff of built) rmSync(handoff.folder, { recursive: true, force: true });
    rmSync(tmp, { recursive: true, force: true });
  });

  const build = async (repo: string, kind: HandoffKind, untracked: readonly string[]) => {
    const handoff = await buildHandoff(repo, { kind, untracked });
    built.push(handoff);
    return handoff;
  };

  /** Uploads the parts to the sandbox's own folder and runs the replay; the sandbox's working copy. */
  const replay = (handoff: Handoff, sandbox: string): string => {
    const partsFolder = join(tmp, `parts-${sandboxes}`);
    cpSync(handoff.folder, partsFolder, { recursive: true });
    runScript(tmp, replayScript(handoff.manifest, { workingCopy: sandbox, partsFolder }));
    return sandbox;
  };
  /** A sandbox as the app server makes one: a shallow clone of the remote's branch, at its tip. */
  const shallowClone = (): string => {
    const sandbox = join(tmp, `sandbox-${++sandboxes}`);
    git(tmp, ['clone', '-q', '--depth', '1', '--branch', 'main', `file://${fixture.remote}`, sandbox]);
    return sandbox;
  };

  const assertSameFiles = (sandbox: string, local: string, skip: (path: string) => boolean) => {
    const expected = filesWithModes(local, skip);
    const actual = filesWithModes(sandbox, (path) => path.startsWith('lib/'));
    assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort(), 'the same files');
    for (const [path, content] of expected)
      assert.equal(actual.get(path), content, `${path}: same bytes and mode`);
  };
  const assertVerified = (sandbox: string, handoff: Handoff, local: string) => {
    const verified = parseVerifyOutput(runScript(sandbox, VERIFY_COMMAND));
    assert.ok(verified, 'the verify step printed its listing');
    assert.equal(verified.tree, handoff.manifest.handedOver.tree, 'the sandbox writes the handed-over tree');
    const listed = gitText(local, ['ls-tree', '-r', '-z', handoff.manifest.handedOver.tree])
      .split('\0')
      .filter((record) => record !== '')
      .map((record) => {
        const [mode = '', , blob = ''] = record.slice(0, record.indexOf('\t')).split(' ');
        return { mode, blob, path: record.slice(record.indexOf('\t') + 1) };
      });
    assert.deepEqual(verified.files, listed, 'every file of the sandbox, its mode and its hash');
  };

  it('commits ahead, staged, unstaged and ticked files arrive byte for byte on the upstream, and nothing moves here', async function () {
    const refsBefore = gitText(fixture.local, ['for-each-ref']);
    const before = repoState(fixture.local);
    const handoff = await build(fixture.local, 'commits', TICKED);
    assertUnchanged(fixture.local, before, 'building the hand-off');
    assert.equal(gitText(fixture.local, ['for-each-ref']), refsBefore, 'no ref moved');

    const sandbox = replay(handoff, shallowClone());
    assertSameFiles(sandbox, fixture.local, handedOver);
    assertVerified(sandbox, handoff, fixture.local);
    // The very commits and the same staged/unstaged split, so the agent sees what the user sees.
    assert.equal(gitText(sandbox, ['rev-parse', 'HEAD']), gitText(fixture.local, ['rev-parse', 'HEAD']));
    assert.equal(gitText(sandbox, ['symbolic-ref', '--short', 'HEAD']).trim(), 'main');
    const staged = ['diff', '--cached', '--binary', '--ignore-submodules=all'];
    assert.equal(gitText(sandbox, staged), gitText(fixture.local, staged), 'the same staged edits');
    assert.ok(!existsSync(join(sandbox, UNTICKED)) && !existsSync(join(sandbox, '.env')));
  });

  it('the way back: the agent server’s delta against the handed-over tree holds only the agent’s work', async function () {
    const handoff = await build(fixture.local, 'commits', TICKED);
    const sandbox = replay(handoff, shallowClone());
    // The verify step writes the handed-over tree into the sandbox, and the record step a commit of it:
    // the agent server's git routes take only a commit as their base.
    runScript(sandbox, VERIFY_COMMAND);
    const base = parseRecordOutput(runScript(sandbox, recordCommand(handoff.manifest.handedOver.tree)));
    assert.ok(base, 'the sandbox made its commit of the handed-over tree');
    assert.throws(() => serverGitDelta(sandbox, handoff.manifest.handedOver.tree), 'a tree is no base_ref');
    write(
      sandbox,
      'app.txt',
      readFileSync(join(sandbox, 'app.txt'), 'utf8').replace('line 20\n', 'line 20 (agent)\n'),
    );
    write(sandbox, 'agent.txt', 'written by the agent\n');
    const delta = serverGitDelta(sandbox, base);
    // Applied on the user's tree as it was handed over, it gives the sandbox's files.
    const mine = join(tmp, `mine-${++sandboxes}`);
    cpSync(fixture.local, mine, { recursive: true, verbatimSymlinks: true });
    const applied = gitWithInput(mine, ['apply', '-'], delta);
    assert.equal(applied.exitCode, 0, applied.stderr);
    assert.deepEqual(differingPaths(treeBytes(fixture.local), treeBytes(mine)).sort(), [
      'agent.txt',
      'app.txt',
    ]);
    assertSameFiles(sandbox, mine, handedOver);
  });

  it('the manifest says what it holds, each part by its size and sha256', async function () {
    const { manifest, folder } = await build(fixture.local, 'commits', TICKED);
    const local = (args: string[]) => gitText(fixture.local, args).trim();
    assert.equal(manifest.head, local(['rev-parse', 'HEAD']));
    assert.equal(
      manifest.base,
      local(['merge-base', 'HEAD', 'origin/main']),
      'where HEAD left the moved upstream',
    );
    assert.equal(manifest.upstream?.commit, local(['rev-parse', 'origin/main']));
    assert.deepEqual(
      manifest.commits.map((commit) => commit.subject),
      ['binary and executable', 'rename the doc'],
    );
    assert.equal(manifest.commitCount, 2);
    assert.deepEqual(
      [...manifest.editedFiles].sort(),
      ['app.txt', 'image.bin', RENAMED_STAGED.from, RENAMED_STAGED.to, 'staged.txt', 'tool.sh'].sort(),
    );
    assert.deepEqual(
      manifest.untracked.map((file) => [file.path, file.type]),
      [
        [TICKED[0], 'file'],
        [TICKED[1], 'executable'],
        [TICKED[2], 'link'],
      ],
    );
    assert.deepEqual(manifest.submodulesLeft, ['lib']);
    assert.deepEqual(manifest.submodules, [{ path: 'lib', commit: local(['rev-parse', 'HEAD:lib']) }]);
    assert.deepEqual(
      manifest.parts.map((part) => part.name),
      ['commits.bundle', 'staged.patch', 'unstaged.patch', 'untracked-1', 'untracked-2', 'untracked-3'],
    );
    assert.deepEqual(readdirSync(folder).sort(), manifest.parts.map((part) => part.name).sort());
    for (const part of manifest.parts) {
      const bytes = readFileSync(join(folder, part.name));
      assert.equal(part.bytes, bytes.length, part.name);
      assert.equal(part.sha256, createHash('sha256').update(bytes).digest('hex'), part.name);
    }
    for (const patch of ['staged.patch', 'unstaged.patch']) {
      assert.ok(!readFileSync(join(folder, patch)).includes('Subproject commit'), `${patch}: no submodule`);
    }
    assert.equal(
      manifest.totalBytes,
      manifest.parts.reduce((sum, part) => sum + part.bytes, 0),
    );
    // Apply's base: a commit of the handed-over tree on top of HEAD, in the user's repository.
    assert.equal(local(['rev-parse', `${manifest.handedOver.commit}^`]), manifest.head);
    assert.equal(local(['rev-parse', `${manifest.handedOver.commit}^{tree}`]), manifest.handedOver.tree);
    assert.equal(local(['rev-parse', `${manifest.handedOver.tree}:${RENAMED_COMMITTED.to}`]).length, 40);
  });

  it('without a git provider: HEAD’s files as an archive plus the same edits, into an empty folder', async function () {
    const handoff = await build(fixture.local, 'archive', TICKED);
    assert.deepEqual(handoff.manifest.parts.map((part) => part.name).slice(0, 3), [
      'head.tar',
      'staged.patch',
      'unstaged.patch',
    ]);
    assert.equal(handoff.manifest.base, undefined);
    const sandbox = replay(handoff, join(tmp, `empty-${++sandboxes}`, 'repo'));
    assertSameFiles(sandbox, fixture.local, handedOver);
    assertVerified(sandbox, handoff, fixture.local);
    assert.equal(gitText(sandbox, ['rev-parse', 'HEAD^{tree}']).trim(), handoff.manifest.headTree);
  });

  it('an ignored .env holding a secret, and a token in a remote URL, are in no part and not in the manifest', async function () {
    const token = 'ghp_handoffTokenCanary0123456789';
    git(fixture.local, [
      'config',
      'remote.origin.pushurl',
      `https://user:${token}@example.com/owner/repo.git`,
    ]);
    for (const kind of ['commits', 'archive'] as const) {
      const { manifest, folder } = await build(fixture.local, kind, TICKED);
      for (const secret of [CANARY, token]) {
        assert.ok(!JSON.stringify(manifest).includes(secret), `${kind}: the manifest`);
        for (const name of readdirSync(folder)) {
          assert.ok(!readFileSync(join(folder, name)).includes(secret), `${kind}: ${name}`);
        }
      }
    }
  });

  it('a detached HEAD goes as an archive, and the commits way says why it cannot', async function () {
    const repo = join(tmp, 'detached');
    gitFile(tmp, ['clone', '-q', '--recurse-submodules', fixture.remote, repo]);
    git(repo, ['checkout', '-q', '--detach', 'HEAD~1']);
    write(repo, 'app.txt', 'edited on a detached HEAD\n');
    await assert.rejects(buildHandoff(repo, { kind: 'commits' }), {
      name: 'HandoffRefusedError',
      reason: 'no-upstream',
      message: /^HEAD follows no branch on a remote/,
    });
    const handoff = await build(repo, 'archive', []);
    assert.equal(handoff.manifest.branch, undefined);
    const sandbox = replay(handoff, join(tmp, `empty-${++sandboxes}`, 'repo'));
    assertSameFiles(sandbox, repo, (path) => path.startsWith('lib/'));
    assertVerified(sandbox, handoff, repo);
  });

  it('names with quotes, $( ), backquotes and shell operators reach the sandbox as they are, running nothing', async function () {
    const repo = join(tmp, 'hostile names');
    gitFile(tmp, ['clone', '-q', '--recurse-submodules', fixture.remote, repo]);
    // Refnames hold no space: ${IFS} stands for one, should a shell ever read it.
    const branch = "it's-$(touch${IFS}BRANCH_RAN)-`touch${IFS}TICK_RAN`";
    git(repo, ['checkout', '-q', '--track', '-b', branch, 'origin/main']);
    const names = [
      "it's $(touch RAN) `touch RAN2`.txt",
      'semi;colon & amp | pipe > out.txt',
      '-rf',
      'ünï cödé/"quoted" name.txt',
    ];
    for (const name of names) write(repo, name, `content of ${name}\n`);
    git(repo, ['add', '--', names[0] ?? '']);
    git(repo, ['commit', '-q', '-m', 'a commit ahead with a hostile name']);
    const handoff = await build(repo, 'commits', names.slice(1));
    const sandbox = replay(handoff, shallowClone());
    assertSameFiles(sandbox, repo, (path) => path.startsWith('lib/'));
    assertVerified(sandbox, handoff, repo);
    assert.equal(gitText(sandbox, ['symbolic-ref', '--short', 'HEAD']).trim(), branch);
    for (const ran of ['RAN', 'RAN2', 'BRANCH_RAN', 'TICK_RAN']) {
      assert.ok(!existsSync(join(sandbox, ran)) && !existsSync(join(tmp, ran)), `${ran}: nothing ran`);
    }
  });
});
