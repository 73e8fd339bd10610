import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { testServerUrl } from './env';
import { expectNoConversationStarted, useFreshExtension } from './extensionApi';

/** The first message the server received for a conversation, from its start task's echo. */
async function firstMessage(conversationId: string): Promise<string> {
  const response = await fetch(
    `${testServerUrl()}/api/v1/app-conversations/start-tasks/search?conversation_id__eq=${conversationId}`,
  );
  const page = (await response.json()) as {
    items: { request: { initial_message?: { content: { text: string }[] } } }[];
  };
  return page.items[0]?.request.initial_message?.content[0]?.text ?? '';
}

describe('new conversation about the code in the editor', () => {
  const t = useFreshExtension();
  let file: vscode.Uri;
  let folder: string;

  before(() => {
    const workspace = vscode.workspace.workspaceFolders?.[0];
    assert.ok(workspace, 'the suite runs with a workspace folder');
    folder = path.join(workspace.uri.fsPath, 'src-under-test');
    mkdirSync(folder, { recursive: true });
    const target = path.join(folder, 'cart.ts');
    writeFileSync(
      target,
      'export function total(items: number[]) {\n  return items.reduce((a, b) => a + b);\n}\n',
    );
    file = vscode.Uri.file(target);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(folder, { recursive: true, force: true });
  });

  it('sends the instruction, the file, the selected lines and the fenced code', async () => {
    const editor = await vscode.window.showTextDocument(file);
    editor.selection = new vscode.Selection(1, 0, 2, 0); // line 2, up to the start of line 3
    const id = await vscode.commands.executeCommand<string | undefined>(
      'openhands.newConversationFromEditor',
      {
        instruction: 'Why does this throw on an empty cart?',
        repository: null,
        sandboxId: null,
      },
    );
    assert.ok(id, 'a conversation was started');
    assert.ok(t.api.store.findConversation(id), 'and is listed');
    assert.equal(
      await firstMessage(id),
      'Why does this throw on an empty cart?\n\nFile: `src-under-test/cart.ts` (line 2):\n\n' +
        '```typescript\n  return items.reduce((a, b) => a + b);\n```',
    );
  });

  it("given the active editor's own file (as the editor context menu passes it), it takes the selection", async () => {
    const editor = await vscode.window.showTextDocument(file);
    editor.selection = new vscode.Selection(0, 7, 0, 38);
    const id = await vscode.commands.executeCommand<string | undefined>(
      'openhands.newConversationFromEditor',
      {
        file: file.toString(),
        instruction: 'Rename this',
        repository: null,
        sandboxId: null,
      },
    );
    assert.ok(id);
    assert.equal(
      await firstMessage(id),
      'Rename this\n\nFile: `src-under-test/cart.ts` (line 1):\n\n```typescript\nfunction total(items: number[])\n```',
    );
  });

  it('about a file that is not the active editor (as from the explorer) it names the file only', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const id = await vscode.commands.executeCommand<string | undefined>(
      'openhands.newConversationFromEditor',
      {
        file: file.toString(),
        instruction: 'Add unit tests',
        repository: null,
        sandboxId: null,
      },
    );
    assert.ok(id);
    assert.equal(await firstMessage(id), 'Add unit tests\n\nFile: `src-under-test/cart.ts`');
  });

  it('refuses a selection too large for a first message, and starts nothing', async () => {
    const big = path.join(folder, 'big.txt');
    writeFileSync(big, 'x'.repeat(25_000));
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(big));
    editor.selection = new vscode.Selection(0, 0, 0, 25_000);
    await expectNoConversationStarted(t.api, 'openhands.newConversationFromEditor', {
      instruction: 'Summarise',
      repository: null,
      sandboxId: null,
    });
  });

  it('a file that cannot be read as text is reported, and nothing starts', async () => {
    await expectNoConversationStarted(t.api, 'openhands.newConversationFromEditor', {
      file: vscode.Uri.file(path.join(folder, 'missing.ts')).toString(),
      instruction: 'Explain',
      repository: null,
      sandboxId: null,
    });
  });
});
