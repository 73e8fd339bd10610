import * as vscode from 'vscode';

/**
 * Opens a web page or another extension's link outside VS Code's window. In the tests' extension
 * host it records what would have opened instead, so a test sees the address without a browser.
 */
export class ExternalOpener {
  /** What was asked to open, in order; only when recording (ExtensionMode.Test). */
  readonly opened: string[] | undefined;

  constructor(record: boolean) {
    this.opened = record ? [] : undefined;
  }

  open(uri: vscode.Uri): Thenable<boolean> {
    if (!this.opened) return vscode.env.openExternal(uri);
    this.opened.push(uri.toString(true));
    return Promise.resolve(true);
  }
}
