// The agent-server double behind every RUNNING sandbox's `/__sandboxes/<id>/agent-server`: wires the
// conversations, the scripted runner, the WebSocket side and the sandbox directories (a real git
// workspace per sandbox), and offers the control operations tests use in process (`server.agent`)
// and over HTTP (`/__control/agent/*`).
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { dashedUuid, IdFactory } from '../ids';
import type { ImageContent, TextContent } from '../models';
import type { ResolvedOptions } from '../options';
import { Prng } from '../prng';
import type { ServerState } from '../state';
import type { Clock } from '../time';
import type { TimerRegistry } from '../timers';
import { bulkEvents } from './bulkEvents';
import { AgentConversations, pendingActions, type AgentConversation } from './conversations';
import { EventFactory } from './eventFactory';
import { objectField, stringField, wireEvent, type AgentEvent, type MessageContent } from './events';
import { performFileEdit } from './fileEditor';
import { getGitChanges, wireChanges, type GitChange } from './git/gitChanges';
import { naiveLocalTime } from './naiveTime';
import { AgentRunner, type RunOutcome } from './runner';
import { configuredSettings, type AgentServerSettings } from './settings';
import { buildCodeRunningWorkspace } from './codeRunningWorkspace';
import { buildImageWorkspace } from './imageWorkspace';
import { buildSampleWorkspace } from './sampleWorkspace';
import { SocketHub } from './socketHub';
import { agentObject } from './toolCatalog';
import { AgentSocketServer } from './upgrade';
import { applyWorkspaceInput, headOf, type WorkspaceInput, type WorkspaceState } from './workspaceEdits';
import { SandboxWorkspaces } from './workspaces';

/** Agent-server event ids use their own stream, so they never shift the app server's ids. */
const AGENT_SEED_SALT = 0x5bd1e995;

/** An event to store through the control API: `kind` is required, the envelope is filled in. */
export interface EventInput {
  kind: string;
  id?: string;
  timestamp?: string;
  source?: string;
  [field: string]: unknown;
}

export interface StreamDelta {
  content?: string;
  reasoning_content?: string;
}

export interface AgentConversationSummary {
  id: string;
  sandbox_id: string;
  execution_status: string;
  event_count: number;
  pending_actions: number;
  sockets: number;
  /** The seeded one that ends with the markdown (and unsafe HTML) agent message. */
  ends_with_agent_message: boolean;
  /** The seeded one with a ~200 KB terminal observation. */
  has_large_output: boolean;
}

export type WorkspacePreset = 'sample' | 'images' | 'runs-code';

export interface SampleWorkspaceState extends WorkspaceState {
  /** What `GET /api/git/changes?path=<dir>` answers now. */
  changes: GitChange[];
}

/** What tests drive in process; the control routes map 1:1 onto it. Ids: hex or dashed. */
export interface AgentControl {
  readonly settings: Readonly<AgentServerSettings>;
  /** Changes tunables at run time (new sockets and steps use them); reset() restores the configured ones. */
  setOptions(patch: Partial<AgentServerSettings>): AgentServerSettings;
  /** A copy of the stored log, in storage order. */
  events(conversationId: string): AgentEvent[];
  /** Stores and broadcasts; an `execution_status` state update also sets the conversation's status. */
  append(conversationId: string, events: readonly EventInput[]): AgentEvent[];
  /** Broadcasts transient StreamingDeltaEvents (never stored). */
  stream(conversationId: string, deltas: readonly (string | StreamDelta)[]): AgentEvent[];
  /** Starts the scripted run, like `POST …/run`. */
  run(conversationId: string): RunOutcome;
  /** Terminates every socket of the conversation (no close frame); refuses new ones for `refuseMs`. */
  drop(conversationId: string, options?: { refuseMs?: number }): number;
  /**
   * Cuts every socket of the conversation off without closing it (a half-open connection): nothing
   * is read or written on it again, not even a pong; no longer counted. New sockets work.
   */
  silence(conversationId: string): number;
  /** Replaces the log with `count` generated events (not broadcast). */
  seedEvents(conversationId: string, count: number): number;
  /** Open sockets of the conversation (authenticated or still authenticating). */
  socketCount(conversationId: string): number;
  socketCounts(): Record<string, number>;
  conversations(): AgentConversationSummary[];
  /** A naive server-local timestamp as events carry it: now, or at `epochMs`. */
  timestamp(epochMs?: number): string;
  /**
   * Writes (null deletes) files into the conversation's sandbox directory; with `commit`, stages them
   * and commits: the new base of git/changes. Throws WorkspaceInputError for a path outside it.
   */
  workspace(conversationId: string, input: WorkspaceInput): Promise<WorkspaceState>;
  /**
   * A preset: a base commit and the agent's changes on top (`sample`: sampleWorkspace.ts, one change
   * of each kind; `images`: imageWorkspace.ts, pictures; `runs-code`: codeRunningWorkspace.ts, files
   * that can run code on the user's machine).
   */
  sampleWorkspace(conversationId: string, preset?: WorkspacePreset): Promise<SampleWorkspaceState>;
  /** A sandbox's directory (absolute; created on first use): `TerminalObservation.metadata.working_dir`. */
  sandboxDir(sandboxId: string): string;
}

export interface AgentServerDeps {
  state: ServerState;
  clock: Clock;
  timers: TimerRegistry;
  options: ResolvedOptions;
}

export class AgentServer implements AgentControl {
  readonly hub = new SocketHub();
  readonly conversationStore: AgentConversations;
  readonly runner: AgentRunner;
  readonly settings: AgentServerSettings;
  readonly workspaces = new SandboxWorkspaces();
  private readonly random: Prng;
  private readonly sockets: AgentSocketServer;

  constructor(private readonly deps: AgentServerDeps) {
    this.settings = configuredSettings(deps.options);
    this.random = new Prng(deps.options.seed.seed ^ AGENT_SEED_SALT);
    const ids = new IdFactory(this.random);
    const factory = new EventFactory({
      nextUuid: () => dashedUuid(ids.uuidHex()),
      nowMicros: () => deps.clock.nowMicros(),
    });
    this.conversationStore = new AgentConversations({
      state: deps.state,
      clock: deps.clock,
      factory,
      hub: this.hub,
      sandboxDir: (sandboxId) => this.workspaces.sandboxDir(sandboxId),
    });
    this.runner = new AgentRunner({
      conversations: this.conversationStore,
      timers: deps.timers,
      settings: this.settings,
      editFile: (target, action) =>
        stringField(action, 'tool_name') === 'file_editor'
          ? performFileEdit(action, this.prepareSandbox(target.conversation.sandbox_id))
          : null,
    });
    this.sockets = new AgentSocketServer({
      state: deps.state,
      conversations: this.conversationStore,
      runner: this.runner,
      hub: this.hub,
      settings: this.settings,
    });
  }

  get factory(): EventFactory {
    return this.conversationStore.factory;
  }

  handleUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    this.sockets.handleUpgrade(request, socket, head);
  };

  /**
   * Runs stop, tunables and refusals go back to the configured ones, sandbox directories go; open
   * sockets stay open, but not the ones `silence` cut off.
   */
  reset(): void {
    this.runner.reset();
    this.workspaces.clear();
    this.hub.clearRefusals();
    this.hub.terminateSilenced();
    Object.assign(this.settings, configuredSettings(this.deps.options));
    this.random.reseed(this.deps.options.seed.seed ^ AGENT_SEED_SALT);
  }

  close(): void {
    this.runner.reset();
    this.hub.terminateAll();
    this.sockets.close();
    this.workspaces.close();
  }

  /**
   * The sandbox's directory as its agent server has it: created, with every conversation of the
   * sandbox started there (so `git init`ed once there is one).
   */
  prepareSandbox(sandboxId: string): string {
    const conversations = this.deps.state.conversations
      .filter((conversation) => conversation.sandbox_id === sandboxId)
      .map(({ id, title, created_at }) => ({ hex: id, title, created_at }));
    return this.workspaces.prepare(sandboxId, conversations);
  }

  sandboxDir(sandboxId: string): string {
    return this.workspaces.sandboxDir(sandboxId);
  }

  /** A deleted sandbox's directory goes with it (the process sandbox service removes it). */
  forgetSandbox(sandboxId: string): void {
    this.workspaces.remove(sandboxId);
  }

  async workspace(conversationId: string, input: WorkspaceInput): Promise<WorkspaceState> {
    const target = this.require(conversationId);
    const dir = this.prepareSandbox(target.conversation.sandbox_id);
    return applyWorkspaceInput(this.workspaces.git, dir, input);
  }

  async sampleWorkspace(
    conversationId: string,
    preset: WorkspacePreset = 'sample',
  ): Promise<SampleWorkspaceState> {
    const target = this.require(conversationId);
    const dir = this.prepareSandbox(target.conversation.sandbox_id);
    const { git } = this.workspaces;
    const build = {
      sample: buildSampleWorkspace,
      images: buildImageWorkspace,
      'runs-code': buildCodeRunningWorkspace,
    };
    await build[preset](git, dir);
    return { dir, head: await headOf(git, dir), changes: wireChanges(await getGitChanges(git, dir)) };
  }

  setOptions(patch: Partial<AgentServerSettings>): AgentServerSettings {
    for (const [name, value] of Object.entries(patch))
      if (value !== undefined) Object.assign(this.settings, { [name]: value });
    return { ...this.settings };
  }

  events(conversationId: string): AgentEvent[] {
    return [...this.require(conversationId).agent.events];
  }

  append(conversationId: string, events: readonly EventInput[]): AgentEvent[] {
    const target = this.require(conversationId);
    return events.map((input) => {
      const { kind, id, timestamp, source, ...fields } = input;
      const envelope = this.factory.envelope('environment');
      return this.conversationStore.append(
        target,
        wireEvent(
          {
            id: id ?? envelope.id,
            timestamp: timestamp ?? envelope.timestamp,
            source: source ?? envelope.source,
          },
          kind,
          fields,
        ),
      );
    });
  }

  stream(conversationId: string, deltas: readonly (string | StreamDelta)[]): AgentEvent[] {
    const target = this.require(conversationId);
    return deltas.map((delta) => {
      const event =
        typeof delta === 'string'
          ? this.factory.streamingDelta(delta)
          : this.factory.streamingDelta(delta.content ?? null, delta.reasoning_content ?? null);
      this.conversationStore.broadcast(target, event);
      return event;
    });
  }

  run(conversationId: string): RunOutcome {
    return this.runner.start(this.require(conversationId));
  }

  /**
   * What the agent server does when the app server starts a conversation with an initial message
   * (AS conversation_service.py `start_conversation`): `send_message(message, run=True)` whatever
   * the request's own `run` says, so the scripted agent runs.
   */
  startConversation(conversationId: string, content: readonly (TextContent | ImageContent)[]): void {
    const message: MessageContent[] = content.map((part) =>
      part.type === 'image'
        ? { cache_prompt: part.cache_prompt, type: 'image', image_urls: [...part.image_urls] }
        : { cache_prompt: part.cache_prompt, type: 'text', text: part.text },
    );
    const target = this.require(conversationId);
    // EventService.start: the workspace exists and is a repository before the first message.
    this.prepareSandbox(target.conversation.sandbox_id);
    this.runner.sendMessage(target, message, true);
  }

  drop(conversationId: string, options: { refuseMs?: number } = {}): number {
    return this.hub.drop(this.require(conversationId).hex, options.refuseMs ?? 0);
  }

  silence(conversationId: string): number {
    return this.hub.silence(this.require(conversationId).hex);
  }

  seedEvents(conversationId: string, count: number): number {
    const target = this.require(conversationId);
    target.agent.events = bulkEvents(
      count,
      () => this.factory.clock.nextUuid(),
      this.deps.clock.nowMicros(),
      target.sandboxDir,
    );
    return target.agent.events.length;
  }

  socketCount(conversationId: string): number {
    return this.hub.socketCount(this.require(conversationId).hex);
  }

  socketCounts(): Record<string, number> {
    return this.hub.socketCounts();
  }

  conversations(): AgentConversationSummary[] {
    return this.deps.state.conversations.flatMap((conversation) => {
      const target = this.conversationStore.find(conversation.id);
      return target ? [summaryOf(target, this.hub.socketCount(target.hex))] : [];
    });
  }

  timestamp(epochMs?: number): string {
    return naiveLocalTime(epochMs === undefined ? this.deps.clock.nowMicros() : epochMs * 1000);
  }

  /**
   * The agent server's `switch_llm` (SDK `LocalConversation.switch_llm`): the agent's LLM becomes the
   * one given (its model is the conversation's `llm_model` here), registered as `usageId`, and the
   * state's new `agent` goes out as a `ConversationStateUpdateEvent` (stored and on the socket), as
   * the SDK's state callback emits it for every changed field. The same LLM again changes nothing.
   */
  switchLlm(conversationId: string, model: string, usageId: string): void {
    const target = this.require(conversationId);
    const unchanged =
      target.conversation.llm_model === model && (target.agent.llm_usage_id ?? 'agent') === usageId;
    target.conversation.llm_model = model;
    target.agent.llm_usage_id = usageId;
    if (unchanged) return;
    this.conversationStore.append(target, this.factory.stateUpdate('agent', agentObject(model, usageId)));
  }

  private require(conversationId: string): AgentConversation {
    const target = this.conversationStore.find(conversationId);
    if (!target) throw new UnknownConversationError(conversationId);
    return target;
  }
}

export class UnknownConversationError extends Error {
  constructor(conversationId: string) {
    super(`Unknown conversation: ${conversationId}`);
  }
}

const LARGE_OUTPUT_CHARS = 100_000;

function summaryOf(target: AgentConversation, sockets: number): AgentConversationSummary {
  const events = target.agent.events;
  const lastMessage = [...events]
    .reverse()
    .find((event) => event.kind === 'MessageEvent' || event.kind === 'ActionEvent');
  return {
    id: target.hex,
    sandbox_id: target.conversation.sandbox_id,
    execution_status: target.conversation.execution_status,
    event_count: events.length,
    pending_actions: pendingActions(events).length,
    sockets,
    ends_with_agent_message: lastMessage?.kind === 'MessageEvent' && lastMessage.source === 'agent',
    has_large_output: events.some((event) => {
      const observation = objectField(event, 'observation');
      return JSON.stringify(observation?.['content'] ?? '').length > LARGE_OUTPUT_CHARS;
    }),
  };
}
