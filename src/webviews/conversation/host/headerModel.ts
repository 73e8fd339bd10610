/**
 * The panel's header as it stands: the conversation's title, statuses and model, why the feed is not
 * live (in words a user knows), what waits for approval, the messages on their way, the changed files
 * and, while the agent browses, its newest screenshot. Pure: built from what the mediator hands it,
 * no vscode, unit-tested in Node; the secrets are scrubbed by the caller (`scrub.ts`).
 */
import type { AppConversation } from '../../../api';
import type { FeedState } from '../../../api/agentServer/feedState';
import type { AgentEvent } from '../../../api/agentServer/events';
import { statsFromMetrics } from '../../../api/usage/usageStats';
import { usageText } from '../../../api/usage/usageText';
import { modelFailureText } from '../../../api/agentServer/modelFailure';
import { askedWords } from '../../../state/askedWords';
import { conversationTitle } from '../../../state/names';
import { agentBranch, pullRequestsOf, type ProviderHosts } from '../../../state/pullRequestLinks';
import type {
  AgentGit,
  BrowserStrip,
  Controls,
  HandedOver,
  Header,
  ModelProblem,
  OutboxEntry,
  PanelChanges,
  PendingAction,
  Usage,
} from '../shared/protocol';
import type { Row } from '../shared/rows';

/** The rows the header reads: the transcript's, read-only. */
export interface HeaderRows {
  readonly all: readonly Row[];
  recent(count: number): Row[];
  sourcesOf(id: string): readonly AgentEvent[];
}

export interface HeaderFacts {
  conversationId: string;
  feed: FeedState;
  /** The app server's view of the conversation, as last read. */
  conversation: AppConversation | undefined;
  eventCount: number;
  rows: HeaderRows;
  outbox: readonly OutboxEntry[];
  busy: Controls['busy'];
  /** The user rejected the pending actions and the agent has not run since. */
  rejected: boolean;
  changes?: PanelChanges;
  now: number;
  /**
   * How long the agent has been "running" with the user's message unanswered (nothing from it since),
   * as the panel's clock measured it; undefined when it is not.
   */
  silentMs?: number;
  /**
   * The providers' hosts (self-hosted ones) once the server said them; until then a PR is named
   * without a link, so that no link points at the wrong host.
   */
  providerHosts?: ProviderHosts;
  /** What the conversation was handed from the user's local state, in the host's words. */
  handedOver?: HandedOver | null;
}

/** How long a running agent may say nothing after the user's message before the header says so. */
export const MODEL_SILENCE_MS = 90_000;

/** The agent's status: the feed's, fresher, else the app server's. */
export function executionStatusOf(
  feed: FeedState,
  conversation: AppConversation | undefined,
): string | undefined {
  return feed.executionStatus ?? conversation?.execution_status ?? undefined;
}

export function panelHeader(facts: HeaderFacts): Header {
  const { feed, conversation, conversationId } = facts;
  const sandboxStatus = conversation?.sandbox_status ?? null;
  const status = executionStatusOf(feed, conversation);
  return {
    conversationId,
    // as its row names it: the server's title, else what the user asked, else the placeholder
    title: conversation
      ? conversationTitle(conversation)
      : (askedWords(conversationId) ?? `Conversation ${conversationId.slice(0, 5)}`),
    executionStatus: status ?? null,
    sandboxStatus,
    model: feed.model ?? conversation?.llm_model ?? null,
    feed: feed.status,
    feedDetail: feedDetail(feed),
    retryInMs: feed.retryAt === undefined ? null : Math.max(0, feed.retryAt - facts.now),
    notice: feed.notice ?? null,
    canResume: sandboxStatus === 'PAUSED' || sandboxStatus === 'MISSING' || sandboxStatus === 'ERROR',
    eventCount: facts.eventCount,
    controls: {
      confirmationPolicy: feed.confirmationPolicy ?? null,
      pendingActions: status === 'waiting_for_confirmation' ? pendingActions(facts.rows) : [],
      outbox: [...facts.outbox],
      busy: facts.busy,
      rejected: facts.rejected && status !== 'running',
    },
    ...(facts.changes ? { changes: facts.changes } : {}),
    browser: status === 'running' ? browserStrip(facts.rows.recent(50)) : null,
    usage: usageOf(feed, conversation),
    modelProblem: modelProblemOf(facts, status, feed.model ?? conversation?.llm_model ?? undefined),
    git: conversation ? agentGitOf(conversation, facts.providerHosts) : null,
    handedOver: facts.handedOver ?? null,
  };
}

/** The agent's branch and each PR (linked once the hosts are known); null when it names neither. */
export function agentGitOf(conversation: AppConversation, hosts: ProviderHosts | undefined): AgentGit | null {
  const branch = agentBranch(conversation) ?? null;
  const pullRequests = pullRequestsOf(conversation, hosts).map((pullRequest) => ({
    number: pullRequest.number,
    url: hosts ? pullRequest.url : null,
  }));
  if (!branch && pullRequests.length === 0) return null;
  return {
    repository: conversation.selected_repository?.trim() || null,
    branch: branch && branch.length > 300 ? `${branch.slice(0, 299)}…` : branch,
    pullRequests,
  };
}

/**
 * The model's failure while the run it ended is the newest (status `error`), or a silence past the
 * bound while the agent says it runs: in words that name the model.
 */
function modelProblemOf(
  facts: HeaderFacts,
  status: string | undefined,
  model: string | undefined,
): ModelProblem | null {
  const failure = facts.feed.modelFailure;
  if (failure && status === 'error')
    return {
      kind: 'failed',
      text: modelFailureText({ ...failure, model: failure.model ?? model }),
      detail: failure.detail || null,
    };
  const silentMs = facts.silentMs;
  if (status === 'running' && silentMs !== undefined && silentMs >= MODEL_SILENCE_MS) {
    const named = model ? `the model ${model}` : 'the model';
    const seconds = Math.floor(silentMs / 1000);
    return {
      kind: 'silent',
      text: `No answer from ${named} for ${seconds} s: it may have no key.`,
      detail: null,
    };
  }
  return null;
}

/** The feed's stats, fresher (they come with each LLM call), else the app server's list. */
function usageOf(feed: FeedState, conversation: AppConversation | undefined): Usage | null {
  const listed = feed.usage ? undefined : statsFromMetrics(conversation?.metrics);
  const stats = feed.usage ?? listed;
  if (!stats) return null;
  const { summary, contextPercent, warning, breakdown } = usageText(stats);
  return { summary, contextPercent, warning, breakdown, source: feed.usage ? 'live' : 'list' };
}

/**
 * While the agent browses (its newest step is a browser step), the newest screenshot it took among
 * these rows, with the last address it opened; null otherwise.
 */
function browserStrip(rows: readonly Row[]): BrowserStrip | null {
  let browsing: boolean | undefined;
  let image: BrowserStrip | null = null;
  let url: string | null = null;
  for (let index = rows.length - 1; index >= 0; index--) {
    const row = rows[index];
    if (row?.kind !== 'action') continue;
    const browser = row.tool.startsWith('browser_');
    browsing ??= browser;
    if (!browsing) return null;
    if (!browser) break;
    const shot = row.images?.[0];
    if (!image && shot) image = { rowId: row.id, image: shot, url: null };
    if (!url && row.summary.startsWith('Open '))
      url = row.summary.slice('Open '.length).split(' ')[0] ?? null;
  }
  return image ? { ...image, url } : null;
}

/** The actions at the end of the transcript with no result yet: the ones the agent waits to run. */
function pendingActions(rows: HeaderRows): PendingAction[] {
  const pending: PendingAction[] = [];
  const all = rows.all;
  for (let index = all.length - 1; index >= 0 && all.length - index <= 200; index--) {
    const row = all[index];
    if (row?.kind !== 'action' || (row.state !== 'pending' && row.state !== 'awaiting')) continue;
    const action = rows.sourcesOf(row.id).find((event) => event.kind === 'ActionEvent')?.['action'];
    pending.unshift({
      id: row.id,
      tool: row.tool,
      summary: row.summary,
      detail: argumentsText(action),
      risk: row.risk,
    });
  }
  return pending;
}

/** An action's arguments as readable text: its fields but the kind, as indented JSON, clipped. */
function argumentsText(action: unknown): string {
  if (typeof action !== 'object' || action === null) return '';
  const { kind: _kind, ...fields } = action as Record<string, unknown>;
  const text = JSON.stringify(fields, null, 2) ?? '';
  return text.length > 4000 ? `${text.slice(0, 4000)}\n…` : text;
}

/**
 * Why the panel is not live, in words a user knows: a failure's own message names sockets, routes and
 * status codes (the log keeps it whole), so a reconnect or a failure is said by its kind.
 */
export function feedDetail(state: FeedState): string | null {
  if (!state.detail) return null;
  if (state.status !== 'reconnecting' && state.status !== 'failed') return state.detail;
  // a half-open socket: the sidebar may still say running, so say what the panel saw
  if (state.status === 'reconnecting' && state.silentMs !== undefined)
    return `No word from the sandbox for ${Math.round(state.silentMs / 1000)} s; reconnecting`;
  switch (state.failure) {
    case undefined:
      return state.detail;
    case 'network':
      return 'The sandbox cannot be reached';
    case 'timeout':
      return 'The sandbox did not answer in time';
    case 'unauthorized':
      return 'The sandbox did not accept its key';
    case 'not_found':
      return 'The sandbox does not know this conversation';
    case 'rate_limited':
      return 'The sandbox has too many connections to this conversation';
    case 'server':
      return 'The sandbox reported an error (the log has the details)';
    case 'cancelled':
      return 'The connection was cancelled';
    default:
      return 'The sandbox sent something unexpected (the log has the details)';
  }
}
