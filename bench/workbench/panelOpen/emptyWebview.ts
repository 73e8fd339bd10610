// The floor under a panel's opening: an empty webview, opened as the panel is (scripts on, in the
// active column) in the same window, whose page is one paragraph and a line of script that says
// when its first frame painted. The driver watches the paragraph paint, as it watches the panel's rows.
import * as crypto from 'node:crypto';
import * as vscode from 'vscode';
import { EMPTY_MARKER_ID } from './steps';

export function emptyWebview(): { panel: vscode.WebviewPanel; createdAt: number } {
  const createdAt = Date.now();
  const panel = vscode.window.createWebviewPanel('openhandsBench.empty', 'Empty', vscode.ViewColumn.Active, {
    enableScripts: true,
  });
  const nonce = crypto.randomBytes(16).toString('base64');
  panel.webview.html =
    `<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" ` +
    `content="default-src 'none'; script-src 'nonce-${nonce}';"></head>` +
    `<body><p id="${EMPTY_MARKER_ID}">empty</p><script nonce="${nonce}">` +
    `requestAnimationFrame(() => acquireVsCodeApi().postMessage(performance.timeOrigin + performance.now()));` +
    `</script></body></html>`;
  return { panel, createdAt };
}
