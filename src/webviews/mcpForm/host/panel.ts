/**
 * The "OpenHands: MCP & Git Providers" editor panel. One at a time; restored after a reload by the
 * serializer registered for `VIEW_TYPE`. The webview is not retained while hidden: it keeps its
 * draft (without secrets) in `setState` and the host re-sends the state when it comes back.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
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
    // Checked on the way out too: a bug here must not reach the webview half-formed.
    const checked = HostToWebviewSchema.safeParse(message);
    if (!checked.success) {
      env.warn(`MCP & Git Providers: not sending an invalid ${message.type} message to the webview.`);
      return;
    }
    this.posted.fire(checked.data);
    void this.panel.webview.postMessage(checked.data).then(undefined, () => undefined);
  }
}

function webviewRoot(extensionUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
}

function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, enableCommandUris: false, localResourceRoots: [webviewRoot(extensionUri)] };
}

function html(webview: vscode.Webview, env: PanelEnvironment): string {
  const root = webviewRoot(env.extensionUri);
  const asset = (name: string) => webview.asWebviewUri(vscode.Uri.joinPath(root, name)).toString();
  return formHtml({
    cspSource: webview.cspSource,
    nonce: randomBytes(18).toString('base64'),
    scriptUri: asset('mcpForm.js'),
    styleUri: asset('mcpForm.css'),
    codiconUri: asset('codicon.css'),
    title: env.strings.title,
    lang: vscode.env.language,
  });
}
