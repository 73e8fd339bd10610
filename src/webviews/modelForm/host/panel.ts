/**
 * The "OpenHands: Model" editor panel. One at a time; restored after a reload by the serializer
 * registered for `VIEW_TYPE`. Not retained while hidden: the page keeps its form (without the key) in
 * `setState` and the host reads the server again when it comes back.
 */
import * as vscode from 'vscode';
import { webviewDocument } from '../../kit/host/document';
import { newNonce, postChecked, webviewAsset, webviewOptions } from '../../kit/host/panel';
import type { ModelController } from './modelController';
import { HostToWebviewSchema, VIEW_TYPE, type HostToWebview } from '../shared/protocol';
import type { UiStrings } from '../shared/uiStrings';

export interface ModelPanelEnvironment {
  extensionUri: vscode.Uri;
  strings: UiStrings;
  createController(post: (message: HostToWebview) => void): ModelController;
  warn(message: string): void;
}

export class ModelFormPanel implements vscode.Disposable {
  private static current: ModelFormPanel | undefined;

  private readonly disposables: vscode.Disposable[] = [];
  private readonly posted = new vscode.EventEmitter<HostToWebview>();
  /** Every message sent to the page (tests check no key is ever among them). */
  readonly onDidPost = this.posted.event;
  readonly controller: ModelController;

  static get open(): ModelFormPanel | undefined {
    return ModelFormPanel.current;
  }

  static show(env: ModelPanelEnvironment): ModelFormPanel {
    if (ModelFormPanel.current) {
      ModelFormPanel.current.panel.reveal();
      return ModelFormPanel.current;
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
    return new ModelFormPanel(panel, env);
  }

  /** Called by the serializer after a reload, with a panel VS Code already created. */
  static revive(panel: vscode.WebviewPanel, env: ModelPanelEnvironment): ModelFormPanel {
    ModelFormPanel.current?.dispose();
    return new ModelFormPanel(panel, env);
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    env: ModelPanelEnvironment,
  ) {
    ModelFormPanel.current = this;
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
    if (ModelFormPanel.current === this) ModelFormPanel.current = undefined;
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
    this.panel.dispose();
  }

  private post(message: HostToWebview, env: ModelPanelEnvironment): void {
    const sent = postChecked(this.panel.webview, HostToWebviewSchema, message, () =>
      env.warn(`Model page: not sending an invalid ${message.type} message to the webview.`),
    );
    if (sent) this.posted.fire(sent);
  }
}

function html(webview: vscode.Webview, env: ModelPanelEnvironment): string {
  const asset = (name: string) => webviewAsset(webview, env.extensionUri, name);
  return webviewDocument({
    cspSource: webview.cspSource,
    nonce: newNonce(),
    scriptUri: asset('modelForm.js'),
    stylesheets: [
      { href: asset('codicon.css'), id: 'vscode-codicon-stylesheet' },
      { href: asset('modelForm.css') },
    ],
    title: env.strings.title,
    lang: vscode.env.language,
    body: '<main id="app" aria-busy="true"></main>',
  });
}
