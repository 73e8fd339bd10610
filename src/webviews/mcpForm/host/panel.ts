/**
 * The "OpenHands: MCP & Git Providers" editor panel. One at a time; restored after a reload by the
 * serializer registered for `VIEW_TYPE`. The webview is not retained while hidden: it keeps its
 * draft (without secrets) in `setState` and the host re-sends the state when it comes back.
 */
import * as vscode from 'vscode';
import { newNonce, postChecked, webviewAsset, webviewOptions } from '../../kit/host/panel';
import type { FormController } from './formController';
import { formHtml } from './html';
import { HostToWebviewSchema, VIEW_TYPE, type HostToWebview } from '../shared/protocol';
import type { UiStrings } from '../shared/uiStrings';

export interface PanelEnvironment {
  extensionUri: vscode.Uri;
  strings: UiStrings;
  createController(post: (message: HostToWebview) => void): FormController;
  warn(message: string): void;
}

export class McpFormPanel implements vscode.Disposable {
  private static current: McpFormPanel | undefined;

  private readonly disposables: vscode.Disposable[] = [];
  private readonly posted = new vscode.EventEmitter<HostToWebview>();
  /** Every message sent to the webview (tests observe the host's answers through it). */
  readonly onDidPost = this.posted.event;
  readonly controller: FormController;

  static get open(): McpFormPanel | undefined {
    return McpFormPanel.current;
  }

  static show(env: PanelEnvironment): McpFormPanel {
    if (McpFormPanel.current) {
      McpFormPanel.current.panel.reveal();
      return McpFormPanel.current;
    }
    const panel = vscode.window.createWebviewPanel(
      VIEW_TYPE,
      env.strings.panelTitle,
      vscode.ViewColumn.Active,
      {
        ...webviewOptions(env.extensionUri),
        retainContextWhenHidden: false,
      },
    );
    return new McpFormPanel(panel, env);
  }

  /** Called by the serializer after a reload, with a panel VS Code already created. */
  static revive(panel: vscode.WebviewPanel, env: PanelEnvironment): McpFormPanel {
    McpFormPanel.current?.dispose();
    return new McpFormPanel(panel, env);
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    env: PanelEnvironment,
  ) {
    McpFormPanel.current = this;
    panel.title = env.strings.panelTitle;
    panel.iconPath = vscode.Uri.joinPath(env.extensionUri, 'media', 'openhands.svg');
    panel.webview.options = webviewOptions(env.extensionUri);
    this.controller = env.createController((message) => this.post(message, env));
    panel.webview.html = html(panel.webview, env);
    this.disposables.push(
      this.posted,
      panel.webview.onDidReceiveMessage((raw: unknown) => this.controller.receive(raw)),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  dispose(): void {
    if (McpFormPanel.current === this) McpFormPanel.current = undefined;
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
    this.panel.dispose();
  }

  private post(message: HostToWebview, env: PanelEnvironment): void {
    const sent = postChecked(this.panel.webview, HostToWebviewSchema, message, () =>
      env.warn(`MCP & Git Providers: not sending an invalid ${message.type} message to the webview.`),
    );
    if (sent) this.posted.fire(sent);
  }
}

function html(webview: vscode.Webview, env: PanelEnvironment): string {
  const asset = (name: string) => webviewAsset(webview, env.extensionUri, name);
  return formHtml({
    cspSource: webview.cspSource,
    nonce: newNonce(),
    scriptUri: asset('mcpForm.js'),
    styleUri: asset('mcpForm.css'),
    codiconUri: asset('codicon.css'),
    title: env.strings.title,
    lang: vscode.env.language,
  });
}
