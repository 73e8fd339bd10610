// A workspace folder git cannot reach from where the extension runs (a remote window's folder when the
// extension runs on the user's side, a virtual file system) is refused in words by Apply and Check Out,
// never taken for a local path; a `file:` folder is used as it is.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { checkOutAgentBranch } from '../../../src/commands/branches/checkOutBranch';
import { applyChanges, type ApplyDeps } from '../../../src/commands/changes/applyFlow';
import { pickFolder } from '../../../src/commands/changes/applyQuestions';
import { localFolder, localWorkspaceFolders } from '../../../src/commands/localFolders';
import { Log } from '../../../src/core/log';
import { prompts } from '../../shared/vscodeStandIn/standIn';
import { conversation } from '../state/appRecords';

const REMOTE = vscode.Uri.parse('vscode-remote://ssh-remote+build-box/home/ana/webapp');
const VIRTUAL = vscode.Uri.parse('memfs:/scratch/webapp');
const LOCAL = vscode.Uri.file('/home/ana/webapp');

/** The agent's change, which a refused folder must never get as far as reading. */
function untouchedChanges(): Record<string, () => never> {
  const never = (): never => assert.fail('Apply read the change for a folder it cannot use');
  return { delta: never };
}

function folder(uri: vscode.Uri, index = 0): vscode.WorkspaceFolder {
  return { uri, name: uri.path.split('/').pop() ?? '', index };
}

describe('Folders git can reach from here (remote windows)', () => {
  const workspace = vscode.workspace as { workspaceFolders: readonly vscode.WorkspaceFolder[] | undefined };

  beforeEach(() => prompts.reset());
  afterEach(() => {
    workspace.workspaceFolders = undefined;
    assert.deepEqual(prompts.unused(), []);
  });

  it('a file: folder is its path; a remote or virtual one is refused with words that say why', () => {
    assert.deepEqual(localFolder(LOCAL), { kind: 'local', path: '/home/ana/webapp' });
    const remote = localFolder(REMOTE);
    assert.equal(remote.kind, 'refused');
    assert.match(
      remote.kind === 'refused' ? remote.message : '',
      /“webapp” is on the remote machine.*Install OpenHands for VS Code on the remote side/,
    );
    const virtual = localFolder(VIRTUAL);
    assert.match(
      virtual.kind === 'refused' ? virtual.message : '',
      /“webapp” is not a folder on disk \(memfs:\)/,
    );
    assert.deepEqual(localWorkspaceFolders([folder(LOCAL), folder(REMOTE, 1)]).paths, ['/home/ana/webapp']);
  });

  it('Apply in a remote window run on the user’s side: the folder is refused in words, nothing read or applied', async () => {
    workspace.workspaceFolders = [folder(REMOTE)];
    const deps = { changes: untouchedChanges(), log: new Log() } as unknown as ApplyDeps;
    const outcome = await applyChanges(deps, conversation(1), { conversationId: 'c1' });
    assert.equal(outcome.kind, 'refused');
    assert.equal(outcome.kind === 'refused' ? outcome.reason : '', 'not-local');
    const [said] = prompts.of('error');
    assert.match(said?.message ?? '', /is on the remote machine/);
    assert.equal(outcome.kind === 'refused' ? outcome.message : '', said?.message);
    // the local path of the same name is never used in its place
    assert.ok(!(said?.message ?? '').includes('/home/ana'), said?.message);

    prompts.reset();
    workspace.workspaceFolders = [folder(LOCAL)];
    assert.deepEqual(await pickFolder(), { kind: 'local', path: '/home/ana/webapp' });
    assert.deepEqual(prompts.asked, []);
  });

  it('Check Out with only a remote folder: refused with the same words, nothing fetched', async () => {
    const agentConversation = conversation(1, {
      title: 'Fix the login',
      selected_repository: 'acme/app',
      selected_branch: 'openhands/fix-login',
      git_provider: 'github',
    });
    workspace.workspaceFolders = [folder(REMOTE)];
    const result = await checkOutAgentBranch(new Log(), agentConversation);
    assert.equal(result.kind, 'refused');
    assert.match(result.kind === 'refused' ? result.message : '', /is on the remote machine/);
  });
});
