import * as vscode from 'vscode';
import type { SpecNode } from './nodes';
import type { SpecCatalog } from '../state/specCatalog';
import type { OpenHandsStore } from '../state/store';
import { specTreeItem } from './treeItems';

/** The Sandbox Specs view: the server's specs, read when the view first asks, with their sandbox counts. */
export class SpecTreeProvider implements vscode.TreeDataProvider<SpecNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly catalog: SpecCatalog,
    private readonly store: OpenHandsStore,
  ) {
    // the store's sandboxes give the per-spec counts
    this.subscriptions = [
      catalog.onDidChange(() => this.changed.fire()),
      store.onDidChange(() => this.changed.fire()),
    ];
  }

  async getChildren(element?: SpecNode): Promise<SpecNode[]> {
    if (element) return [];
    // After a failed read the last specs stay (stale, not empty) and the view's message says why;
    // with no server there are none and the welcome view shows.
    const specs = await this.catalog.ensureLoaded().catch(() => []);
    return specs.map((spec, index) => ({ kind: 'spec', spec, isDefault: index === 0 }));
  }

  getTreeItem(node: SpecNode): vscode.TreeItem {
    const count = this.store.sandboxes.filter((sandbox) => sandbox.sandbox_spec_id === node.spec.id).length;
    return specTreeItem(node, count);
  }

  /** The view's message: why the specs could not be read, if they could not. */
  message(): string | undefined {
    const error = this.catalog.lastError;
    return error ? vscode.l10n.t('Could not read the sandbox specs: {0}', error.message) : undefined;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }
}
