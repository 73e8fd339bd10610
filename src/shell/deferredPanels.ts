import * as vscode from 'vscode';

/** What a webview host registers with VS Code to bring its panels back and to answer links. */
export type PanelRegistrar = Pick<
  typeof vscode.window,
  'registerWebviewPanelSerializer' | 'registerUriHandler'
>;

/**
 * The panels' serializers and the link handler, registered at activation (VS Code activates the
 * extension for them and expects them then) for hosts that load later: a restored panel or a link
 * loads the services first, then goes to the host that registered here.
 */
export class DeferredPanels implements PanelRegistrar, vscode.Disposable {
  private readonly serializers = new Map<string, vscode.WebviewPanelSerializer<unknown>>();
  private uriHandler: vscode.UriHandler | undefined;
  private readonly registrations: vscode.Disposable[];

  constructor(viewTypes: readonly string[], load: () => Promise<unknown>) {
    this.registrations = viewTypes.map((viewType) =>
      vscode.window.registerWebviewPanelSerializer(viewType, {
        deserializeWebviewPanel: async (panel, state: unknown) => {
          await load();
          const serializer = this.serializers.get(viewType);
          // no host for it: close the panel rather than leave an empty one
          if (serializer) await serializer.deserializeWebviewPanel(panel, state);
          else panel.dispose();
        },
      }),
    );
    this.registrations.push(
      vscode.window.registerUriHandler({
        handleUri: async (uri) => {
          await load();
          await this.uriHandler?.handleUri(uri);
        },
      }),
    );
  }

  registerWebviewPanelSerializer<T>(
    viewType: string,
    serializer: vscode.WebviewPanelSerializer<T>,
  ): vscode.Disposable {
    this.serializers.set(viewType, serializer as vscode.WebviewPanelSerializer<unknown>);
    return new vscode.Disposable(() => this.serializers.delete(viewType));
  }

  registerUriHandler(handler: vscode.UriHandler): vscode.Disposable {
    this.uriHandler = handler;
    return new vscode.Disposable(() => (this.uriHandler = undefined));
  }

  dispose(): void {
    for (const registration of this.registrations) registration.dispose();
  }
}
