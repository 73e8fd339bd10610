import * as vscode from 'vscode';

/**
 * A tree view registered before its rows can be read: VS Code gets the view at activation (so it
 * never says "no data provider"), and the first `getChildren` loads the services, which then
 * `attach` the real provider. Everything after that is the real provider's answer.
 */
export class DeferredTree<T> implements vscode.TreeDataProvider<T>, vscode.Disposable {
  readonly view: vscode.TreeView<T>;
  private provider: vscode.TreeDataProvider<T> | undefined;
  private readonly changed = new vscode.EventEmitter<T | T[] | undefined | null | void>();
  readonly onDidChangeTreeData = this.changed.event;
  private forwarding: vscode.Disposable | undefined;

  constructor(
    viewId: string,
    options: { showCollapseAll?: boolean },
    private readonly load: () => Promise<unknown>,
  ) {
    this.view = vscode.window.createTreeView<T>(viewId, { ...options, treeDataProvider: this });
  }

  /** Hands the view to its real provider; returns the view for whoever shows messages and badges on it. */
  attach(provider: vscode.TreeDataProvider<T>): vscode.TreeView<T> {
    this.provider = provider;
    this.forwarding = provider.onDidChangeTreeData?.((change) => this.changed.fire(change));
    return this.view;
  }

  async getChildren(element?: T): Promise<T[] | null | undefined> {
    if (!this.provider) await this.load();
    return this.attached().getChildren(element);
  }

  // Rows exist only once the provider gave them, so these never run before `attach`.
  getTreeItem(element: T): vscode.TreeItem | Thenable<vscode.TreeItem> {
    return this.attached().getTreeItem(element);
  }

  getParent(element: T): vscode.ProviderResult<T> {
    return this.attached().getParent?.(element);
  }

  resolveTreeItem(
    item: vscode.TreeItem,
    element: T,
    token: vscode.CancellationToken,
  ): vscode.ProviderResult<vscode.TreeItem> {
    const provider = this.attached();
    return provider.resolveTreeItem ? provider.resolveTreeItem(item, element, token) : item;
  }

  dispose(): void {
    this.forwarding?.dispose();
    this.changed.dispose();
    this.view.dispose();
  }

  private attached(): vscode.TreeDataProvider<T> {
    if (!this.provider) throw new Error(`the tree view ${this.view.title ?? ''} has no provider yet`);
    return this.provider;
  }
}
