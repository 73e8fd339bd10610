// Check Out the Agent's Branch with real git in temporary repositories: a bare "remote" holding the
// agent's branch, a clone as the user's workspace (clean, dirty, with a local branch of that name), and
// branch names from a hostile server that must never reach git as anything but a checked name.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BranchCheckoutError,
  checkOutRemoteBranch,
  checkedBranchName,
  uncommittedFiles,
} from '../../../src/changes/branchCheckout';
import { runGit, type GitRunner } from '../../../src/changes/git';
import { commitAll, git, gitText, write } from './scratchRepo';

const AGENT_BRANCH = 'openhands/fix-login';

describe('branchCheckout (the agent’s branch into the user’s repository)', () => {
  let scratch: string;
  let remote: string;
  let workspace: string;

  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'openhands-branch-'));
    const seed = join(scratch, 'seed');
    git(scratch, ['init', '-q', seed]);
    write(seed, 'README.md', 'hello\n');
    write(seed, 'login.ts', 'export const login = 1;\n');
    commitAll(seed, 'base');
    remote = join(scratch, 'remote.git');
    git(scratch, ['clone', '-q', '--bare', seed, remote]);
    workspace = join(scratch, 'workspace');
    git(scratch, ['clone', '-q', remote, workspace]);
    // the agent pushes its branch after the user cloned
    git(seed, ['checkout', '-q', '-b', AGENT_BRANCH]);
    write(seed, 'login.ts', 'export const login = 2;\n');
    commitAll(seed, 'the agent’s fix');
    git(seed, ['push', '-q', remote, AGENT_BRANCH]);
  });

  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  const head = () => gitText(workspace, ['symbolic-ref', '--short', 'HEAD']).trim();
  const upstream = () => gitText(workspace, ['rev-parse', '--abbrev-ref', '@{upstream}']).trim();
  const agentTip = () => gitText(remote, ['rev-parse', AGENT_BRANCH]).trim();

  it('a clean tree: fetches the branch and checks it out as a local branch tracking it', async () => {
    assert.equal(await uncommittedFiles(workspace), 0);
    const outcome = await checkOutRemoteBranch(workspace, 'origin', AGENT_BRANCH);
    assert.deepEqual(outcome, { kind: 'created', branch: AGENT_BRANCH, upstream: `origin/${AGENT_BRANCH}` });
    assert.equal(head(), AGENT_BRANCH);
    assert.equal(upstream(), `origin/${AGENT_BRANCH}`);
    assert.equal(gitText(workspace, ['rev-parse', 'HEAD']).trim(), agentTip());
    assert.equal(readFileSync(join(workspace, 'login.ts'), 'utf8'), 'export const login = 2;\n');
  });

  it('a dirty tree: counted first; an edit git can carry comes along, never overwritten', async () => {
    write(workspace, 'README.md', 'my edit\n');
    assert.equal(await uncommittedFiles(workspace), 1);
    await checkOutRemoteBranch(workspace, 'origin', AGENT_BRANCH);
    assert.equal(head(), AGENT_BRANCH);
    assert.equal(readFileSync(join(workspace, 'README.md'), 'utf8'), 'my edit\n');
  });

  it('a dirty tree whose edit the branch changes: git refuses, nothing is forced, the edit stays', async () => {
    write(workspace, 'login.ts', 'my own login\n');
    await assert.rejects(
      checkOutRemoteBranch(workspace, 'origin', AGENT_BRANCH),
      (error: Error) => /checkout/.test(error.message) && /overwritten|login\.ts/.test(error.message),
    );
    assert.equal(head(), 'main');
    assert.equal(readFileSync(join(workspace, 'login.ts'), 'utf8'), 'my own login\n');
  });

  it('an existing local branch behind the agent’s: fast-forwarded and made to track it', async () => {
    const base = gitText(workspace, ['rev-parse', 'HEAD']).trim();
    git(workspace, ['branch', '--no-track', AGENT_BRANCH, base]);
    const outcome = await checkOutRemoteBranch(workspace, 'origin', AGENT_BRANCH);
    assert.equal(outcome.kind, 'updated');
    assert.equal(head(), AGENT_BRANCH);
    assert.equal(gitText(workspace, ['rev-parse', 'HEAD']).trim(), agentTip());
    assert.equal(upstream(), `origin/${AGENT_BRANCH}`);
  });

  it('an existing local branch with commits of its own: refused, nothing changed', async () => {
    git(workspace, ['checkout', '-q', '-b', AGENT_BRANCH]);
    write(workspace, 'mine.txt', 'mine\n');
    commitAll(workspace, 'my own commit');
    const mine = gitText(workspace, ['rev-parse', 'HEAD']).trim();
    git(workspace, ['checkout', '-q', 'main']);
    await assert.rejects(
      checkOutRemoteBranch(workspace, 'origin', AGENT_BRANCH),
      (error: unknown) =>
        error instanceof BranchCheckoutError &&
        error.reason === 'diverged' &&
        /nothing was changed/.test(error.message),
    );
    assert.equal(head(), 'main');
    assert.equal(gitText(workspace, ['rev-parse', AGENT_BRANCH]).trim(), mine);
  });

  it('a branch the remote does not have is said in words', async () => {
    await assert.rejects(
      checkOutRemoteBranch(workspace, 'origin', 'openhands/never-pushed'),
      (error: unknown) => error instanceof BranchCheckoutError && error.reason === 'not-on-remote',
    );
    assert.equal(head(), 'main');
  });

  it('a hostile branch name is refused before git fetches anything', async () => {
    const hostile = [
      '--upload-pack=touch pwned',
      '-b',
      'a..b',
      '@{-1}',
      'x y',
      'x\nLocation: y',
      'feature.lock',
      'refs/heads/../x',
      'x:y',
      '',
      'x'.repeat(300),
    ];
    const calls: string[][] = [];
    const recording: GitRunner = (cwd, args, options) => {
      calls.push([...args]);
      return runGit(cwd, args, options);
    };
    for (const name of hostile) {
      assert.equal(await checkedBranchName(workspace, name), undefined, JSON.stringify(name));
      await assert.rejects(
        checkOutRemoteBranch(workspace, 'origin', name, recording),
        (error: unknown) => error instanceof BranchCheckoutError && error.reason === 'invalid-branch',
      );
    }
    assert.ok(
      !calls.some((args) => args.includes('fetch') || args.includes('checkout')),
      JSON.stringify(calls),
    );
    assert.equal(head(), 'main');
    assert.equal(await checkedBranchName(workspace, AGENT_BRANCH), AGENT_BRANCH);
  });

  it('a failed fetch’s error names no credential of the remote’s URL', async () => {
    // git 2.39 masks the URL itself; older gits (and some helpers) quote it whole on stderr
    const url = 'https://someone:s3cret-token-9f2@git.example/acme/app.git';
    const olderGit: GitRunner = (cwd, args, options) =>
      args[0] === 'fetch'
        ? Promise.resolve({
            exitCode: 128,
            stdout: Buffer.alloc(0),
            stderr: `fatal: unable to access '${url}/': Could not resolve host: git.example\n`,
          })
        : runGit(cwd, args, options);
    await assert.rejects(
      checkOutRemoteBranch(workspace, 'origin', AGENT_BRANCH, olderGit),
      (error: Error) => {
        assert.ok(!error.message.includes('s3cret-token-9f2'), error.message);
        assert.ok(!error.message.includes('someone'), error.message);
        return /fetch/.test(error.message) && /git\.example/.test(error.message);
      },
    );
  });
});
