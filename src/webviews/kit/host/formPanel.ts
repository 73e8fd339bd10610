/**
 * A form's editor panel (MCP & Git Providers, the Model page): one at a time, restored after a reload
 * by the serializer registered for its view type. Not retained while hidden: the page keeps its form
 * (without secrets) in `setState` and the host sends the state again when it comes back.
 */
import * as vscode from 'vscode';
import type * as z from 'zod/mini';
import { formDocument } from './formDocument';
import { newNonce, postChecked, webviewAsset, webviewOptions } from './panel';

/** What the panel asks of a form's host-side controller. */
export interface FormPanelController {
  receive(raw: unknown): void;
  /** Resolves once the work that messages started is done. */
  idle(): Promise<void>;
  /** The server or its key changed: the form reads the new one. */
  serverChanged(): void;
}

/** One form: what tells it apart from the other. */
export interface FormPage<Message extends { type: string }> {
  viewType: string;
  /** The page's bundle in `dist/webview/`: `<bundle>.js` and `<bundle>.css`. */
  bundle: string;
  /** Checks every message on its way to the page. */
  schema: z.ZodMiniType<Message>;
  /** Names the form in the log. */
  logName: string;
}

export interface FormPanelEnvironment<Message, Controller> {
  extensionUri: vscode.Uri;
  strings: { panelTitle: string; title: string };
  createController(post: (message: Message) => void): Controller;
  warn(message: string): void;
}

export class FormPanel<Message extends { type: string }, Controller extends FormPanelController>
  implements vscode.Disposable
{
  private readonly disposables: vscode.Disposable[] = [];
  private readonly posted = new vscode.EventEmitter<Message>();
  /** Every message sent to the page (tests observe the host's answers, and look for secrets, in it). */
  readonly onDidPost = this.posted.event;
  readonly controller: Controller;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly page: FormPage<Message>,
    private readonly env: FormPanelEnvironment<Message, Controller>,
    private readonly onDispose: (panel: FormPanel<Message, Controller>) => void,
  ) {
    panel.title = env.strings.panelTitle;
    panel.iconPath = vscode.Uri.joinPath(env.extensionUri, 'media', 'openhands.svg');
    panel.webview.options = webviewOptions(env.extensionUri);
    this.controller = env.createController((message) => this.post(message));
    panel.webview.html = this.html();
    this.disposables.push(
      this.posted,
      panel.webview.onDidReceiveMessage((raw: unknown) => this.controller.receive(raw)),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  dispose(): void {
    this.onDispose(this);
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
    this.panel.dispose();
  }

  private post(message: Message): void {
    const sent = postChecked(this.panel.webview, this.page.schema, message, () =>
      this.env.warn(`${this.page.logName}: not sending an invalid ${message.type} message to the webview.`),
    );
    if (sent) this.posted.fire(sent);
  }

  private html(): string {
    const webview = this.panel.webview;
    const asset = (name: string) => webviewAsset(webview, this.env.extensionUri, name);
    return formDocument({
      cspSource: webview.cspSource,
      nonce: newNonce(),
      scriptUri: asset(`${this.page.bundle}.js`),
      styleUri: asset(`${this.page.bundle}.css`),
      codiconUri: asset('codicon.css'),
      title: this.env.strings.title,
      lang: vscode.env.language,
    });
  }
}

/** The one panel of a form: shown (or brought forward), revived after a reload, closed. */
export class FormPanelSlot<Message extends { type: string }, Controller extends FormPanelController>
  implements vscode.Disposable
{
  private current: FormPanel<Message, Controller> | undefined;

  constructor(
    private readonly page: FormPage<Message>,
    private readonly env: FormPanelEnvironment<Message, Controller>,
  ) {}

  get open(): FormPanel<Message, Controller> | undefined {
    return this.current;
  }

  show(): FormPanel<Message, Controller> {
    if (this.current) {
      this.current.panel.reveal();
      return this.current;
    }
    const panel = vscode.window.createWebviewPanel(
      this.page.viewType,
      this.env.strings.panelTitle,
      vscode.ViewColumn.Active,
      { ...webviewOptions(this.env.extensionUri), retainContextWhenHidden: false },
    );
    return this.adopt(panel);
  }

  /** Called by the serializer after a reload, with a panel VS Code already created. */
  revive(panel: vscode.WebviewPanel): FormPanel<Message, Controller> {
    this.current?.dispose();
    return this.adopt(panel);
  }

  dispose(): void {
    this.current?.dispose();
  }

  private adopt(panel: vscode.WebviewPanel): FormPanel<Message, Controller> {
    const opened = new FormPanel(panel, this.page, this.env, (closed) => {
      if (this.current === closed) this.current = undefined;
    });
    this.current = opened;
    return opened;
  }
}
