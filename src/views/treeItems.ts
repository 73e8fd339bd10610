import * as vscode from 'vscode';
import {
  contextPercent,
  costWithBudget,
  formatTokens,
  statsFromMetrics,
  stripQuery,
  totalTokens,
  type AppConversation,
  type ExecutionStatus,
  type SandboxInfo,
} from '../api';
import { conversationTitle, shortSpec, vscodeUrl } from '../state/names';
import { agentBranch, pullRequestsOf, type PullRequestLink } from '../state/pullRequestLinks';
import { modelFailureWords } from '../state/modelFailures';
import type { ConversationNode, SandboxNode } from './nodes';
import { conversationIcon, executionStatusLabel, sandboxStatusStyle } from './statusStyle';
import type { SandboxTransition } from '../state/store';
import { formatAge, formatTimestamp } from './time';

const TRANSITION_LABEL: Record<SandboxTransition['kind'], () => string> = {
  pausing: () => vscode.l10n.t('Pausing…'),
  resuming: () => vscode.l10n.t('Resuming…'),
  starting: () => vscode.l10n.t('Starting…'),
  deleting: () => vscode.l10n.t('Deleting…'),
};

/**
 * Context values drive the menus: `sandbox.<status>` plus `.vscode` when a VS Code URL is exposed,
 * or `sandbox.busy` while an action is in flight (no lifecycle actions then).
 */
export function sandboxContextValue(sandbox: SandboxInfo, transition: SandboxTransition | undefined): string {
  if (transition) return 'sandbox.busy';
  const known = ['RUNNING', 'STARTING', 'PAUSED', 'ERROR', 'MISSING'].includes(sandbox.status);
  const base = `sandbox.${known ? sandbox.status.toLowerCase() : 'unknown'}`;
  return vscodeUrl(sandbox) ? `${base}.vscode` : base;
}

/**
 * Said after a row's description while the server does not answer and the rows are the last it sent
 * (the view's message says the rest: since when, and why).
 */
export function lastKnownNote(): string {
  return vscode.l10n.t('last known');
}

export function sandboxTreeItem(
  node: SandboxNode,
  /** What runs in it: its newest conversation's title, else a readable name (`state/names.ts`). */
  name: string,
  transition: SandboxTransition | undefined,
  /** `undefined` when only some conversations are loaded. */
  conversationCount: number | undefined,
  stale: boolean,
): vscode.TreeItem {
  const { sandbox } = node;
  const style = sandboxStatusStyle(sandbox.status);
  const item = new vscode.TreeItem(
    name,
    conversationCount === 0
      ? vscode.TreeItemCollapsibleState.None
      : vscode.TreeItemCollapsibleState.Collapsed,
  );
  // ids hold only what never changes, so selection and expansion survive refreshes
  item.id = `sandbox/${sandbox.id}`;
  const status = transition ? TRANSITION_LABEL[transition.kind]() : style.label;
  const parts = [
    status,
    conversationCount === 0 ? vscode.l10n.t('no conversation') : undefined,
    sandbox.sandbox_spec_id ? shortSpec(sandbox.sandbox_spec_id) : undefined,
    formatAge(sandbox.created_at),
  ].filter(Boolean);
  if (stale) parts.push(lastKnownNote());
  item.description = parts.join(' · ');
  item.iconPath = transition ? new vscode.ThemeIcon('loading~spin') : style.icon;
  item.contextValue = sandboxContextValue(sandbox, transition);
  item.tooltip = sandboxTooltip(sandbox, name, style.label, conversationCount);
  // the id is for the tooltip and Copy Sandbox Id: read aloud, it says nothing
  item.accessibilityInformation = {
    label: vscode.l10n.t('Sandbox {0}, {1}', name, item.description),
  };
  return item;
}

function sandboxTooltip(
  sandbox: SandboxInfo,
  name: string,
  statusLabel: string,
  conversationCount: number | undefined,
): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${escape(name)}**\n\n`);
  md.appendMarkdown(`Sandbox id: \`${sandbox.id}\`\n\n`);
  md.appendMarkdown(`$(circle-filled) ${statusLabel}`);
  if (sandbox.status_detail) md.appendText(` — ${sandbox.status_detail}`);
  md.appendMarkdown(`\n\n`);
  md.appendMarkdown(`Spec: \`${sandbox.sandbox_spec_id || '—'}\`\n\n`);
  md.appendMarkdown(`Created: ${formatTimestamp(sandbox.created_at)}\n\n`);
  if (conversationCount !== undefined) md.appendMarkdown(`Conversations: ${conversationCount}\n\n`);
  const urls = sandbox.exposed_urls ?? [];
  if (urls.length) {
    md.appendMarkdown(`Exposed URLs:\n`);
    // the VS Code URL carries the session key as tkn=…; show where it points, never the key
    for (const url of urls) md.appendMarkdown(`- ${url.name}: \`${stripQuery(url.url)}\`\n`);
  }
  return md;
}

/** `status`: the agent's status as the live feed says it (fresher than the polled list), else the list's. */
export function conversationTreeItem(
  node: ConversationNode,
  stale: boolean,
  status: ExecutionStatus | null = node.conversation.execution_status,
): vscode.TreeItem {
  const { conversation } = node;
  const item = new vscode.TreeItem(conversationTitle(conversation), vscode.TreeItemCollapsibleState.None);
  item.id = node.underSandbox
    ? `sandbox/${node.underSandbox}/conversation/${conversation.id}`
    : `conversation/${conversation.id}`;
  // "idle · acme/app (main) · sandbox running · 5 min ago": the agent's state first, then what it
  // works on, then where it runs
  const execution = executionStatusLabel(status);
  const sandbox = vscode.l10n.t(
    'sandbox {0}',
    sandboxStatusStyle(conversation.sandbox_status).label.toLowerCase(),
  );
  // what the server listed; an open panel has it live
  const usage = statsFromMetrics(conversation.metrics)?.main;
  // a run that ended on the model's failure: said instead of a bare "error"
  const modelFailed = status === 'error' && modelFailureWords(conversation.id) !== undefined;
  const pullRequests = pullRequestsOf(conversation);
  const parts = [
    modelFailed ? vscode.l10n.t('model failed') : execution,
    repositoryLabel(conversation),
    pullRequestsLabel(pullRequests),
    usage && costWithBudget(usage),
    sandbox,
    formatAge(conversation.updated_at),
  ].filter(Boolean);
  if (stale) parts.push(lastKnownNote());
  item.description = parts.join(' · ');
  item.iconPath = conversationIcon(status, conversation.sandbox_status);
  // `.branch` and `.pr` offer Check Out the Agent's Branch and Open Pull Request on the row
  item.contextValue = [
    `conversation.${conversation.sandbox_status === 'PAUSED' ? 'sandboxPaused' : 'ok'}`,
    agentBranch(conversation) && conversation.selected_repository ? 'branch' : undefined,
    pullRequests.length > 0 ? 'pr' : undefined,
  ]
    .filter(Boolean)
    .join('.');
  // the tooltip comes on hover (`resolveTreeItem`): VS Code turns every row's markdown into tokens
  // whenever it asks for the rows, thousands at a time after "Load more"
  item.command = { command: 'openhands.openConversation', title: 'Open', arguments: [node] };
  return item;
}

/** `#12`, `#12, #14`, or undefined when the agent opened no pull request. */
export function pullRequestsLabel(pullRequests: readonly PullRequestLink[]): string | undefined {
  if (pullRequests.length === 0) return undefined;
  return pullRequests.map((pullRequest) => `#${pullRequest.number}`).join(', ');
}

/** `acme/app (main)`, `acme/app`, or undefined when the conversation names no repository. */
export function repositoryLabel(conversation: AppConversation): string | undefined {
  const repository = conversation.selected_repository?.trim();
  if (!repository) return undefined;
  const branch = conversation.selected_branch?.trim();
  return branch ? vscode.l10n.t('{0} ({1})', repository, branch) : repository;
}

export function conversationTooltip(conversation: AppConversation): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${escape(conversationTitle(conversation))}**\n\n`);
  md.appendMarkdown(`Id: \`${conversation.id}\`\n\n`);
  md.appendMarkdown(
    `Agent: ${executionStatusLabel(conversation.execution_status) ?? '—'} · Sandbox: ${conversation.sandbox_status}\n\n`,
  );
  if (conversation.selected_repository) {
    md.appendMarkdown(`Repository: \`${conversation.selected_repository}\``);
    if (conversation.selected_branch) md.appendMarkdown(` @ \`${conversation.selected_branch}\``);
    md.appendMarkdown('\n\n');
  }
  const pullRequests = pullRequestsLabel(pullRequestsOf(conversation));
  // numbers only: nothing markdown reads
  if (pullRequests) md.appendMarkdown(`${vscode.l10n.t('Pull requests: {0}', pullRequests)}\n\n`);
  if (conversation.llm_model) md.appendMarkdown(`Model: \`${conversation.llm_model}\`\n\n`);
  const failure = modelFailureWords(conversation.id, conversation.llm_model);
  if (failure) md.appendMarkdown(`${vscode.l10n.t('Model failed: {0}', escape(failure))}\n\n`);
  const usage = statsFromMetrics(conversation.metrics)?.main;
  if (usage) {
    const percent = contextPercent(usage);
    const context = percent === null ? '' : ` · context ${percent} %`;
    // our own figures: digits, `$`, `.`, `%` and words, nothing markdown reads
    md.appendMarkdown(
      `Cost: ${costWithBudget(usage)} · ${formatTokens(totalTokens(usage))} tokens${context}\n\n`,
    );
  }
  md.appendMarkdown(
    `Created: ${formatTimestamp(conversation.created_at)} · Updated: ${formatTimestamp(conversation.updated_at)}`,
  );
  return md;
}

export function loadMoreTreeItem(): vscode.TreeItem {
  const item = new vscode.TreeItem(vscode.l10n.t('Load more…'), vscode.TreeItemCollapsibleState.None);
  item.id = 'conversations/load-more';
  item.iconPath = new vscode.ThemeIcon('ellipsis');
  item.contextValue = 'loadMore';
  item.command = { command: 'openhands.loadMoreConversations', title: vscode.l10n.t('Load more…') };
  return item;
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
