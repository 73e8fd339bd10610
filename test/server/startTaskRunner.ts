// Drives start tasks through the real status order on timers:
// WORKING → WAITING_FOR_SANDBOX → PREPARING_REPOSITORY → RUNNING_SETUP_SCRIPT → SETTING_UP_GIT_HOOKS
// → STARTING_CONVERSATION → READY (or ERROR), then emulates the auto-title processor. An initial
// message goes to the sandbox's agent-server double (`startAgent`), whose scripted agent runs it.
import { titleFromMessage, wantsAutoTitle } from './autoTitle';
import { dashedUuid, type IdFactory } from './ids';
import type {
  AppConversationStartRequest,
  AppConversationStartTask,
  ConversationRecord,
  SendMessageRequest,
  StartTaskStatus,
} from './models';
import type { ResolvedTimings } from './options';
import type { SandboxLifecycle } from './sandboxLifecycle';
import { agentServerUrl } from './sandboxUrls';
import { findConversation, findSandbox, type ServerState } from './state';
import type { Clock } from './time';
import type { TimerRegistry } from './timers';

/** `LLM.model`'s default in openhands-sdk 1.34.0: what a 1.11.0 server without settings starts with. */
const DEFAULT_LLM_MODEL = 'gpt-5.5';

/** The real server gives up waiting for a sandbox after 120 s. */
const SANDBOX_WAIT_TIMEOUT_MS = 120_000;
/** Steps after the sandbox is up, in order. */
const SETUP_STEPS: readonly StartTaskStatus[] = [
  'PREPARING_REPOSITORY',
  'RUNNING_SETUP_SCRIPT',
  'SETTING_UP_GIT_HOOKS',
  'STARTING_CONVERSATION',
];
export type TaskListener = (task: AppConversationStartTask) => void;

export interface StartTaskRunnerDeps {
  state: ServerState;
  ids: IdFactory;
  clock: Clock;
  timers: TimerRegistry;
  timings: ResolvedTimings;
  sandboxes: SandboxLifecycle;
  baseUrl: () => string;
  /**
   * The agent server starting the new conversation with its initial message (sent with run=true):
   * the agent-server double's scripted run, so the app view and the agent view agree.
   */
  startAgent: (conversationId: string, message: SendMessageRequest) => void;
  /**
   * PREPARING_REPOSITORY's work in the sandbox (`repositoryClone.ts`): the ERROR detail when the start
   * must stop there, else undefined.
   */
  prepareRepository: (sandboxId: string, request: AppConversationStartRequest) => Promise<string | undefined>;
}

export class StartTaskRunner {
  private readonly queuedFailures: string[] = [];
  private readonly listeners = new Map<string, Set<TaskListener>>();
  /** While set, starts stop at STARTING_CONVERSATION (tests type while a conversation starts). */
  private holding = false;
  /** The starts held there, each going on when released. */
  private readonly held: (() => void)[] = [];
  /** Bumped by reset(): a clone that ends after it moves no task on. */
  private generation = 0;

  constructor(private readonly deps: StartTaskRunnerDeps) {}

  /** The next `count` tasks created end in ERROR with `detail` (which may be ""). */
  failNext(detail: string, count = 1): void {
    for (let i = 0; i < count; i++) this.queuedFailures.push(detail);
  }

  /** Holds every start at STARTING_CONVERSATION from now on (`true`), or lets the held ones go on. */
  hold(on: boolean): void {
    this.holding = on;
    if (!on) for (const resume of this.held.splice(0)) resume();
  }

  /** Saves and returns the first (WORKING) task; the rest happens on timers. */
  begin(request: AppConversationStartRequest): AppConversationStartTask {
    const now = this.deps.clock.now();
    const task: AppConversationStartTask = {
      id: this.deps.ids.uuidHex(),
      created_by_user_id: null,
      status: 'WORKING',
      detail: null,
      app_conversation_id: null,
      sandbox_id: null,
      agent_server_url: null,
      request,
      created_at: now,
      updated_at: now,
    };
    this.deps.state.startTasks.push(task);
    const failure = this.queuedFailures.shift();
    this.deps.timers.after(this.deps.timings.startTaskStepMs, () => this.acquireSandbox(task, failure));
    return task;
  }

  /** Called with a copy of the task after every persisted change. Returns an unsubscribe function. */
  subscribe(taskId: string, listener: TaskListener): () => void {
    const forTask = this.listeners.get(taskId) ?? new Set<TaskListener>();
    forTask.add(listener);
    this.listeners.set(taskId, forTask);
    return () => {
      forTask.delete(listener);
      if (forTask.size === 0) this.listeners.delete(taskId);
    };
  }

  reset(): void {
    this.holding = false;
    this.held.length = 0;
    this.generation++;
    this.queuedFailures.length = 0;
    this.listeners.clear();
  }

  private update(task: AppConversationStartTask, changes: Partial<AppConversationStartTask>): void {
    Object.assign(task, changes, { updated_at: this.deps.clock.now() });
    for (const listener of [...(this.listeners.get(task.id) ?? [])]) listener(structuredClone(task));
  }

  private fail(task: AppConversationStartTask, detail: string): void {
    this.update(task, { status: 'ERROR', detail });
  }

  private acquireSandbox(task: AppConversationStartTask, failure: string | undefined): void {
    const requestedId = task.request.sandbox_id;
    if (requestedId === null) {
      const spec = this.deps.state.specs[0];
      if (!spec) {
        this.update(task, { status: 'WAITING_FOR_SANDBOX' });
        this.fail(task, 'No sandbox specs available');
        return;
      }
      const sandbox = this.deps.sandboxes.start(spec.id);
      this.update(task, { status: 'WAITING_FOR_SANDBOX', sandbox_id: sandbox.id });
    } else {
      const sandbox = findSandbox(this.deps.state, requestedId);
      this.update(task, { status: 'WAITING_FOR_SANDBOX', sandbox_id: sandbox ? sandbox.id : null });
      if (!sandbox) {
        this.fail(task, `Sandbox not found: ${requestedId}`);
        return;
      }
      if (sandbox.status === 'ERROR' || sandbox.status === 'MISSING') {
        this.fail(task, `Sandbox status: ${sandbox.status}`);
        return;
      }
      if (sandbox.status === 'PAUSED' || this.deps.sandboxes.pendingTransition(sandbox.id) === 'pause') {
        this.deps.sandboxes.resume(sandbox.id);
      }
    }
    this.waitForSandbox(task, Date.now(), failure);
  }

  private waitForSandbox(
    task: AppConversationStartTask,
    startedAt: number,
    failure: string | undefined,
  ): void {
    const sandboxId = task.sandbox_id ?? '';
    const sandbox = findSandbox(this.deps.state, sandboxId);
    if (!sandbox) return this.fail(task, `Sandbox not found: ${sandboxId}`);
    if (sandbox.status === 'RUNNING') {
      this.deps.timers.after(this.deps.timings.startTaskStepMs, () => this.runSetupStep(task, 0, failure));
      return;
    }
    const stillComing =
      sandbox.status === 'STARTING' || this.deps.sandboxes.pendingTransition(sandboxId) === 'resume';
    if (!stillComing) return this.fail(task, `Sandbox not startable: ${sandboxId}`);
    if (Date.now() - startedAt > SANDBOX_WAIT_TIMEOUT_MS)
      return this.fail(task, `Sandbox failed to start: ${sandboxId}`);
    // The real server polls every 2 s; polling faster keeps small test timings fast.
    const pollMs = Math.max(5, Math.min(this.deps.timings.startTaskStepMs, 250));
    this.deps.timers.after(pollMs, () => this.waitForSandbox(task, startedAt, failure));
  }

  private runSetupStep(task: AppConversationStartTask, stepIndex: number, failure: string | undefined): void {
    const status = SETUP_STEPS[stepIndex];
    if (status === undefined) return this.finish(task, failure);
    const changes: Partial<AppConversationStartTask> = { status };
    if (status === 'STARTING_CONVERSATION') {
      changes.agent_server_url = agentServerUrl(this.deps.baseUrl(), task.sandbox_id ?? '');
    }
    this.update(task, changes);
    const next = () =>
      this.deps.timers.after(this.deps.timings.startTaskStepMs, () =>
        this.runSetupStep(task, stepIndex + 1, failure),
      );
    if (status === 'STARTING_CONVERSATION' && this.holding) return void this.held.push(next);
    if (status !== 'PREPARING_REPOSITORY') return void next();
    const generation = this.generation;
    void this.deps.prepareRepository(task.sandbox_id ?? '', task.request).then(
      (detail) => {
        if (generation !== this.generation) return;
        if (detail === undefined) next();
        else this.fail(task, detail);
      },
      (error: unknown) => {
        if (generation === this.generation)
          this.fail(task, error instanceof Error ? error.message : String(error));
      },
    );
  }

  private finish(task: AppConversationStartTask, failure: string | undefined): void {
    if (failure !== undefined) return this.fail(task, failure);
    // openhands-ai 1.11.0 no longer asserts that settings exist (older servers ended in ERROR with an
    // empty detail): without them the conversation starts READY on the SDK's default model, with no
    // API key (checked by test:real).
    const settings = this.deps.state.settings;
    const conversation = this.createConversation(
      task,
      settings === null ? DEFAULT_LLM_MODEL : settings.llm_model,
    );
    // The agent server sends the initial message (and starts the run) before the task is READY.
    const initial = task.request.initial_message;
    if (initial) this.deps.startAgent(conversation.id, initial);
    this.update(task, { status: 'READY', app_conversation_id: conversation.id });
    this.deliverPending(task.id, conversation.id);
    this.emulateAutoTitle(conversation.id, task.request);
  }

  /**
   * `_process_pending_messages`: once READY, what was queued for `task-<hex>` or the conversation's
   * dashed id goes to the agent server in order (`run: true`), then every one is dropped.
   */
  private deliverPending(taskId: string, conversationId: string): void {
    const ids = new Set([`task-${taskId}`, dashedUuid(conversationId)]);
    const state = this.deps.state;
    const pending = state.pendingMessages.filter((message) => ids.has(message.conversation_id));
    state.pendingMessages = state.pendingMessages.filter((message) => !ids.has(message.conversation_id));
    for (const message of pending)
      this.deps.startAgent(conversationId, { role: 'user', content: message.content, run: true });
  }

  private createConversation(
    task: AppConversationStartTask,
    defaultModel: string | null,
  ): ConversationRecord {
    const request = task.request;
    // 1.11: `request.conversation_id or uuid4()`
    const id = request.conversation_id ?? this.deps.ids.uuidHex();
    const now = this.deps.clock.now();
    const conversation: ConversationRecord = {
      id,
      created_by_user_id: null,
      sandbox_id: task.sandbox_id ?? '',
      selected_repository: request.selected_repository,
      selected_branch: request.selected_branch,
      git_provider: request.git_provider,
      // The request's own title is ignored by the real server.
      title: `Conversation ${id.slice(0, 5)}`,
      trigger: request.trigger,
      pr_number: [...request.pr_number],
      llm_model: request.llm_model ?? defaultModel,
      metrics: null,
      parent_conversation_id: request.parent_conversation_id,
      created_at: now,
      updated_at: now,
      // `running` once the agent double takes the initial message.
      execution_status: 'idle',
    };
    this.deps.state.conversations.push(conversation);
    return conversation;
  }

  private emulateAutoTitle(conversationId: string, request: AppConversationStartRequest): void {
    const title = wantsAutoTitle(request.processors) ? titleFromMessage(request.initial_message) : null;
    if (title === null) return;
    this.deps.timers.after(this.deps.timings.startTaskStepMs, () => {
      const conversation = findConversation(this.deps.state, conversationId);
      if (!conversation) return;
      conversation.title = title;
      conversation.updated_at = this.deps.clock.now();
    });
  }
}
