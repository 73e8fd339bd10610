/**
 * What every webview panel of the extension shares on the host side: where its built files live,
 * the options that lock it down, a fresh nonce per load, and messages checked against the protocol
 * on the way out as well as in.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type * as z from 'zod/mini';

/** `dist/webview/`: the only folder a webview may load from. */
export function webviewRoot(extensionUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
}

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, enableCommandUris: false, localResourceRoots: [webviewRoot(extensionUri)] };
}

/** A webview URI for a built file in `dist/webview/`. */
export function webviewAsset(webview: vscode.Webview, extensionUri: vscode.Uri, name: string): string {
  return webview.asWebviewUri(vscode.Uri.joinPath(webviewRoot(extensionUri), name)).toString();
}

export function newNonce(): string {
  return randomBytes(18).toString('base64');
}

/**
 * Posts a message after checking it against the protocol: a bug on the host side must not reach the
 * webview half-formed. Returns the checked message, or undefined when it was not sent.
 */
export function postChecked<M>(
  webview: vscode.Webview,
  schema: z.ZodMiniType<M>,
  message: M,
  onInvalid: () => void,
): M | undefined {
  const checked = schema.safeParse(message);
  if (!checked.success) {
    onInvalid();
    return undefined;
  }
  void webview.postMessage(checked.data).then(undefined, () => undefined);
  return checked.data;
}
