// Check Out the Agent's Branch as the user meets it, against the vscode stand-in and real git in
// temporary repositories: the workspace folder whose remote is the conversation's repository is found,
// a dirty tree is asked about first (dismissed: nothing changes), a hostile name is refused in words.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkOutAgentBranch } from '../../../../src/commands/branches/checkOutBranch';
import { Log } from '../../../../src/core/log';
import { prompts } from '../../../shared/vscodeStandIn/standIn';
import { commitAll, git, gitText, write } from '../../changes/scratchRepo';
import { conversation } from '../../state/appRecords';

const BRANCH = 'openhands/fix-login';

describe('Check Out the Agent’s Branch', function () {
  this.timeout(30_000);
  let scratch: string;
  let other: string;
  let workspace: string;
  const log = new Log();
  const agentConversation = conversation(1, {
    title: 'Fix the login',
    selected_repository: 'acme/app',
    selected_branch: BRANCH,
    git_provider: 'github',
  });

  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'openhands-checkout-command-'));
    const seed = join(scratch, 'seed');
    git(scratch, ['init', '-q', seed]);
    write(seed, 'login.ts', 'export const login = 1;\n');
    commitAll(seed, 'base');
    git(seed, ['checkout', '-q', '-b', BRANCH]);
    write(seed, 'login.ts', 'export const login = 2;\n');
    commitAll(seed, 'the agent’s fix');
    git(seed, ['checkout', '-q', 'main']);
    const remote = join(scratch, 'remote.git');
    git(scratch, ['clone', '-q', '--bare', seed, remote]);
    // another folder of the workspace, a clone of another repository
    other = join(scratch, 'other');
    git(scratch, ['init', '-q', other]);
    git(other, ['remote', 'add', 'origin', 'https://github.com/acme/other.git']);
    workspace = join(scratch, 'app');
    git(scratch, ['clone', '-q', '--branch', 'main', remote, workspace]);
    // the remote the user calls "upstream" is the conversation's repository on GitHub
    git(workspace, ['remote', 'rename', 'origin', 'upstream']);
    git(workspace, ['config', 'remote.upstream.pushurl', 'git@github.com:acme/app.git']);
  });

  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  const head = () => gitText(workspace, ['symbolic-ref', '--short', 'HEAD']).trim();

  it('checks it out in the folder whose remote is the conversation’s repository, and says so', async () => {
    const result = await checkOutAgentBranch(log, agentConversation, {
      paths: [other, workspace],
      refused: [],
    });
    assert.equal(result.kind, 'checked-out');
    assert.equal(head(), BRANCH);
    assert.equal(gitText(workspace, ['config', `branch.${BRANCH}.remote`]).trim(), 'upstream');
    assert.match(
      prompts.of('information')[0]?.message ?? '',
      /Checked out the agent’s branch “openhands\/fix-login” in app, tracking upstream\/openhands\/fix-login\./,
    );
  });

  it('asks first when the tree is dirty; dismissed, nothing changes', async () => {
    write(workspace, 'login.ts', 'my edit\n');
    const result = await checkOutAgentBranch(log, agentConversation, { paths: [workspace], refused: [] });
    assert.deepEqual(result, { kind: 'cancelled' });
    const [asked] = prompts.of('warning');
    assert.equal(asked?.modal, true);
    assert.match(
      asked?.message ?? '',
      /app has uncommitted changes in 1 file\(s\)\. Check out “openhands\/fix-login” anyway\?/,
    );
    assert.equal(head(), 'main');
    assert.equal(readFileSync(join(workspace, 'login.ts'), 'utf8'), 'my edit\n');
  });

  it('answered Check Out on a conflicting edit: git refuses, the edit stays, the failure is in words', async () => {
    write(workspace, 'login.ts', 'my edit\n');
    prompts.answer('warning', 'Check Out');
    const result = await checkOutAgentBranch(log, agentConversation, { paths: [workspace], refused: [] });
    assert.equal(result.kind, 'refused');
    assert.match(
      prompts.of('error')[0]?.message ?? '',
      /^Could not check out the agent’s branch “openhands\/fix-login”: git checkout/,
    );
    assert.equal(readFileSync(join(workspace, 'login.ts'), 'utf8'), 'my edit\n');
    assert.equal(head(), 'main');
  });

  it('refuses a hostile branch name, and a workspace with no clone of the repository, in words', async () => {
    const hostile = { ...agentConversation, selected_branch: '--upload-pack=touch /tmp/pwned' };
    assert.equal(
      (await checkOutAgentBranch(log, hostile, { paths: [workspace], refused: [] })).kind,
      'refused',
    );
    assert.match(prompts.of('error')[0]?.message ?? '', /not a valid git branch name: nothing was fetched/);
    assert.equal(
      (await checkOutAgentBranch(log, agentConversation, { paths: [other], refused: [] })).kind,
      'refused',
    );
    assert.match(
      prompts.of('error')[1]?.message ?? '',
      /No folder of this workspace is a clone of acme\/app/,
    );
    assert.equal(head(), 'main');
  });
});
