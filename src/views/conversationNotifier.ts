/**
 * Tells the user when a conversation needs them: a notification per transition the watch reports
 * (finished, waiting for confirmation, error, stuck) with Open, and a badge on the Conversations view
 * counting the conversations waiting for the user. Approving happens in the panel, where the action
 * can be read, so a notification only opens it. Nothing for the conversation whose panel the user is
 * looking at in a focused window: they see it already.
 */
import * as vscode from 'vscode';
import type { NotificationScope } from '../core/config';
import type { ConversationTransition, ConversationWatch } from '../state/conversationWatch';

export interface NotifierDeps {
  watch: ConversationWatch;
  scope(): NotificationScope;
  /** The conversation's panel is the active editor of a focused window. */
  isInView(conversationId: string): boolean;
  badgeView: vscode.TreeView<unknown>;
}

export interface ShownNotification {
  conversationId: string;
  status: ConversationTransition['status'];
  text: string;
}

export class ConversationNotifier implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly shownEmitter = new vscode.EventEmitter<ShownNotification>();
  /** Each notification shown (the integration tests follow them through it). */
  readonly onDidShow = this.shownEmitter.event;

  constructor(private readonly deps: NotifierDeps) {
    this.disposables.push(
      this.shownEmitter,
      deps.watch.onDidTransition((transition) => this.transitioned(transition)),
      deps.watch.onDidChange(() => this.updateBadge()),
    );
    this.updateBadge();
  }

  private transitioned(transition: ConversationTransition): void {
    const scope = this.deps.scope();
    if (scope === 'off') return;
    if (scope === 'watched' && !this.deps.watch.isWatched(transition.conversationId)) return;
    if (this.deps.isInView(transition.conversationId)) return;
    const text = notificationText(transition);
    const open = vscode.l10n.t('Open');
    const show =
      transition.status === 'error'
        ? vscode.window.showErrorMessage
        : transition.status === 'finished'
          ? vscode.window.showInformationMessage
          : vscode.window.showWarningMessage;
    this.shownEmitter.fire({ conversationId: transition.conversationId, status: transition.status, text });
    void show(text, open).then((choice) => {
      if (choice === open)
        void vscode.commands.executeCommand('openhands.openConversation', transition.conversationId);
    });
  }

  private updateBadge(): void {
    const waiting = this.deps.watch.waiting().length;
    this.deps.badgeView.badge =
      waiting === 0
        ? undefined
        : {
            value: waiting,
            tooltip:
              waiting === 1
                ? vscode.l10n.t('1 conversation is waiting for you')
                : vscode.l10n.t('{0} conversations are waiting for you', waiting),
          };
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }
}

function notificationText({ title, status, detail }: ConversationTransition): string {
  const quoted = `“${title}”`;
  switch (status) {
    case 'finished':
      return detail
        ? vscode.l10n.t('{0} finished: {1}', quoted, detail)
        : vscode.l10n.t('{0} finished.', quoted);
    case 'waiting_for_confirmation':
      return vscode.l10n.t('{0} is waiting for you to approve its next action.', quoted);
    case 'error':
      return detail
        ? vscode.l10n.t('{0} stopped with an error: {1}', quoted, detail)
        : vscode.l10n.t('{0} stopped with an error.', quoted);
    case 'stuck':
      return vscode.l10n.t('{0} is stuck: the agent keeps repeating itself.', quoted);
  }
}
