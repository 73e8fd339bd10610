// A workspace folder on a file system this side cannot write with git (issue 37, item 4): `npm run
// test:vscode` runs this folder in a third VS Code whose workspace's one folder is memfs:/webapp, served by
// a test extension (./memfs) that VS Code activates as it resolves the folder, as it does GitHub
// Repositories' vscode-vfs:. Apply and Check Out the Agent's Branch, run by command, refuse in words that
// say why, never take the folder's path for one on disk, read nothing of the change and write nothing.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AppConversation } from '../../../src/api';
import type { CheckOutResult } from '../../../src/commands/branches/checkOutBranch';
import type { ApplyOutcome } from '../../../src/commands/changes/applyFlow';
import { quietConversation } from '../conversations';
import { useFreshExtension } from '../extensionApi';
import { agentServer, server } from '../serverControl';
import { MEMFS_EXTENSION_ID, MEMFS_FOLDER, SEEDED_FILES, type MemfsExports } from './memfs/memfsFacts';

/** What the user reads, from src/commands/localFolders.ts, for a folder on the memfs: file system. */
const REFUSAL =
  '“webapp” is not a folder on disk (memfs:), so git cannot run in it. Open a local clone of the repository and try again.';

/** Every file under the folder and its text, read through VS Code's file system (the provider's view). */
async function filesOf(folder: vscode.Uri): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  const decoder = new TextDecoder();
  const walk = async (dir: vscode.Uri): Promise<void> => {
    for (const [name, type] of await vscode.workspace.fs.readDirectory(dir)) {
      const entry = vscode.Uri.joinPath(dir, name);
      if (type === vscode.FileType.Directory) await walk(entry);
      else found[entry.path] = decoder.decode(await vscode.workspace.fs.readFile(entry));
    }
  };
  await walk(folder);
  return found;
}

function memfs(): MemfsExports {
  const extension = vscode.extensions.getExtension<MemfsExports>(MEMFS_EXTENSION_ID);
  assert.ok(extension?.isActive, 'VS Code activated the memfs extension to resolve the folder');
  return extension.exports;
}

function theFolder(): vscode.WorkspaceFolder {
  const folders = vscode.workspace.workspaceFolders ?? [];
  assert.equal(folders.length, 1, 'the driver opens a workspace of one folder');
  return folders[0] as vscode.WorkspaceFolder;
}

describe('a workspace folder on a virtual file system (issue 37, item 4)', function () {
  this.timeout(60_000);
  const t = useFreshExtension();

  /** The conversation's calls to its agent server since the requests were cleared (Apply's would read the change). */
  async function agentCalls(conversation: AppConversation): Promise<string[]> {
    const requests = await server.requests();
    return requests
      .filter((r) => r.path.startsWith(`/__sandboxes/${conversation.sandbox_id}/agent-server/`))
      .map((r) => `${r.method} ${r.path.replace(/^.*\/agent-server/, '')}`);
  }

  afterEach(() => {
    // nothing here ever asked the memfs file system to change
    assert.deepEqual(memfs().changes(), []);
  });

  it('the folder is memfs:/webapp, served by the test extension, and the extension runs beside it', async () => {
    const folder = theFolder();
    assert.equal(folder.uri.toString(), MEMFS_FOLDER);
    assert.deepEqual(await filesOf(folder.uri), SEEDED_FILES);
    // the workbench reads it too (an editor's document comes through the window, not this extension host)
    const readme = vscode.Uri.joinPath(folder.uri, 'README.md');
    const editor = await vscode.window.showTextDocument(readme);
    assert.equal(editor.document.getText(), SEEDED_FILES['/webapp/README.md']);
    // (the explorer keeps a mark on the folder: it resolved it before the extension host, so memfs, ran)
    const extension = vscode.extensions.getExtension('openhands-community.openhands-vscode');
    assert.equal(extension?.isActive, true);
  });

  it('Apply refuses the folder in words, reads none of the change and writes nothing', async () => {
    const conversation = quietConversation(t.api);
    // an agent's change waits in the sandbox: an Apply that went on would read it
    await agentServer.sampleWorkspace(conversation.id);
    const folder = theFolder().uri;
    await server.clearRequests();
    const outcome = await vscode.commands.executeCommand<ApplyOutcome>(
      'openhands.applyChanges',
      conversation.id,
    );
    assert.deepEqual(outcome, { kind: 'refused', reason: 'not-local', paths: [], message: REFUSAL });
    assert.deepEqual(await agentCalls(conversation), [], 'nothing of the change was read');
    assert.deepEqual(await filesOf(folder), SEEDED_FILES);
  });

  it('Check Out the Agent’s Branch refuses the folder in the same words and changes nothing', async () => {
    const { id } = quietConversation(t.api);
    await server.patchConversation(id, {
      selected_repository: 'acme/webapp',
      selected_branch: 'openhands/fix-login',
      git_provider: 'github',
    });
    await t.api.store.refresh();
    const result = await vscode.commands.executeCommand<CheckOutResult>('openhands.checkOutAgentBranch', id);
    assert.deepEqual(result, { kind: 'refused', message: REFUSAL });
    assert.deepEqual(await filesOf(theFolder().uri), SEEDED_FILES);
  });
});
