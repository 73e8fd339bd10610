// The floor under a panel's first paint: how long VS Code takes from creating a webview panel to
// hearing from its page, when the page is one paragraph and one line of script.
import * as crypto from 'node:crypto';
import * as vscode from 'vscode';

const TIMEOUT_MS = 30_000;

/** Milliseconds from `createWebviewPanel` to the page's first message (host clock). */
export async function bareWebviewMs(): Promise<number> {
  const started = Date.now();
  const panel = vscode.window.createWebviewPanel(
    'openhandsBench.bare',
    'Bare webview',
    vscode.ViewColumn.Active,
    {
      enableScripts: true,
    },
  );
  try {
    const heard = new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the bare webview never posted')), TIMEOUT_MS);
      panel.webview.onDidReceiveMessage(() => {
        clearTimeout(timer);
        resolve(Date.now());
      });
    });
    const nonce = crypto.randomBytes(16).toString('base64');
    panel.webview.html =
      `<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" ` +
      `content="default-src 'none'; script-src 'nonce-${nonce}';"></head>` +
      `<body><p>bare</p><script nonce="${nonce}">acquireVsCodeApi().postMessage('ready');</script></body></html>`;
    return (await heard) - started;
  } finally {
    panel.dispose();
  }
}
