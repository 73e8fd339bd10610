// The scripted agent: what `run` does in the double, step by step on timers (`agentStepMs` apart),
// plus pause, interrupt, confirmation and messages, with the events and status transitions of SDK
// 1.34.0 (§3 of the agent-server reference). A run resumes from the log: pending actions are
// executed first, then the script continues after the last action since the last user message.
// Once the user has decided on actions that waited for confirmation (ran them by accept, `/run` or a
// message, or rejected them), the scripted agent finishes, as the live run's scripted LLM did.
import type { TimerRegistry } from '../timers';
import { pendingActions, type AgentConversation, type AgentConversations } from './conversations';
import { stringField, type AgentEvent, type MessageContent } from './events';
import { observationFor } from './observations';
import { addUsage, type ConfirmationPolicy, type SecurityRisk } from './records';
import { RUN_SCENARIO, type Scenario } from './scenario';
import type { AgentServerSettings } from './settings';
import { fileEditCall, finishCall, terminalCall, thinkCall, type ToolCall } from './toolCalls';
import { DEFAULT_AGENT_MODEL } from './conversationInfo';

type StepResult = 'next' | 'stop';
type Step = (run: ActiveRun) => StepResult;

interface ActiveRun {
  target: AgentConversation;
  steps: Step[];
  index: number;
  timer: NodeJS.Timeout | undefined;
  /** An action whose observation is the next step: pause waits for it, interrupt fails it. */
  inFlight: AgentEvent | null;
}

export type RunOutcome = 'started' | 'already_running' | 'noop';

const PHASES = ['think', 'terminal', 'file_editor', 'finish'] as const;
const RISK_RANK: Record<SecurityRisk, number> = { UNKNOWN: 0, LOW: 1, MEDIUM: 2, HIGH: 3 };
/** SDK local_conversation.py `_emit_orphaned_action_errors`. */
export const INTERRUPTED_TOOL_CALL = 'Tool call interrupted before completion. The conversation was paused.';

/** SDK agent.py: a lone think/finish never waits; otherwise the policy decides. */
export function needsConfirmation(policy: ConfirmationPolicy, toolName: string, risk: SecurityRisk): boolean {
  if (toolName === 'think' || toolName === 'finish') return false;
  switch (policy.kind) {
    case 'NeverConfirm':
      return false;
    case 'AlwaysConfirm':
      return true;
    case 'ConfirmRisky':
      return risk === 'UNKNOWN' ? policy.confirm_unknown : RISK_RANK[risk] >= RISK_RANK[policy.threshold];
  }
}

export interface AgentRunnerDeps {
  conversations: AgentConversations;
  timers: TimerRegistry;
  settings: AgentServerSettings;
  scenario?: Scenario;
  /** Carries out a file_editor action on the sandbox directory: its observation, or null if not one. */
  editFile?: (target: AgentConversation, action: AgentEvent) => Record<string, unknown> | null;
}

export class AgentRunner {
  private readonly runs = new Map<string, ActiveRun>();
  private readonly scenario: Scenario;

  constructor(private readonly deps: AgentRunnerDeps) {
    this.scenario = deps.scenario ?? RUN_SCENARIO;
  }

  private get conversations(): AgentConversations {
    return this.deps.conversations;
  }

  isRunning(target: AgentConversation): boolean {
    return this.runs.has(target.hex) || target.conversation.execution_status === 'running';
  }

  /**
   * `POST /run`: 409 while running. A finished conversation stays finished (the SDK's loop stops at
   * once, as observed); the ended run task still publishes a full_state.
   */
  start(target: AgentConversation): RunOutcome {
    if (this.isRunning(target)) return 'already_running';
    if (target.conversation.execution_status === 'finished') {
      this.conversations.broadcastFullState(target);
      return 'noop';
    }
    const run: ActiveRun = { target, steps: this.plan(target), index: 0, timer: undefined, inFlight: null };
    this.conversations.setStatus(target, 'running');
    this.runs.set(target.hex, run);
    this.schedule(run);
    return 'started';
  }

  /** `POST …/events`: finished/stuck → idle first; the first message brings the system prompt. */
  sendMessage(target: AgentConversation, content: MessageContent[], run: boolean): AgentEvent {
    const { factory } = this.conversations;
    const status = target.conversation.execution_status;
    if (status === 'finished' || status === 'stuck') this.conversations.setStatus(target, 'idle');
    if (!target.agent.events.some((event) => event.kind === 'SystemPromptEvent')) {
      this.conversations.append(target, factory.systemPrompt());
    }
    const message = this.conversations.append(target, factory.userMessage(content));
    this.conversations.append(target, factory.stateUpdate('last_user_message_id', message.id));
    // A running loop picks the message up by itself.
    if (run) this.start(target);
    return message;
  }

  /**
   * Between steps: an action in flight gets its observation first (pause waits for the tool call).
   * Only idle and running conversations pause; the server publishes a full_state either way.
   */
  pause(target: AgentConversation): void {
    const status = target.conversation.execution_status;
    if (status === 'idle' || status === 'running') {
      const run = this.stop(target);
      if (run?.inFlight) this.observe(run, run.inFlight);
      this.conversations.setStatus(target, 'paused');
      this.conversations.append(target, this.conversations.factory.pause());
    }
    this.conversations.broadcastFullState(target);
  }

  /**
   * At once: every action without an observation fails with an AgentErrorEvent, then `paused` and an
   * InterruptEvent, then a full_state. Without a run it falls back to pause.
   */
  interrupt(target: AgentConversation): void {
    if (!this.isRunning(target)) return this.pause(target);
    this.stop(target);
    const { factory } = this.conversations;
    for (const action of pendingActions(target.agent.events)) {
      this.conversations.append(target, factory.agentError(action, INTERRUPTED_TOOL_CALL));
    }
    this.conversations.setStatus(target, 'paused');
    this.conversations.append(target, factory.interrupt());
    this.conversations.broadcastFullState(target);
  }

  /**
   * Accept = run (a silent success when already running, a no-op when finished). Reject (SDK
   * `reject_pending_actions`): `waiting_for_confirmation` → `idle`, then one UserRejectObservation per
   * pending action; the agent does not go on by itself. While a step of a run is under way the
   * double does nothing (the real server would wait for the step and race it).
   */
  respondToConfirmation(target: AgentConversation, accept: boolean, reason: string): void {
    if (accept) {
      this.start(target);
      return;
    }
    if (this.runs.has(target.hex)) return;
    const pending = pendingActions(target.agent.events);
    if (target.conversation.execution_status === 'waiting_for_confirmation') {
      this.conversations.setStatus(target, 'idle');
    }
    for (const action of pending) {
      this.conversations.append(target, this.conversations.factory.userReject(action, reason));
    }
  }

  /** Stored with `kind` last, as pydantic dumps the policy (in the state update and full_state). */
  setConfirmationPolicy(target: AgentConversation, policy: ConfirmationPolicy): void {
    const { kind, ...fields } = policy;
    const stored = { ...fields, kind } as ConfirmationPolicy;
    target.agent.confirmation_policy = stored;
    this.conversations.append(
      target,
      this.conversations.factory.stateUpdate('confirmation_policy', { ...stored }),
    );
  }

  /** Forgets runs in flight (their timers are cleared by the registry owner). */
  reset(): void {
    for (const run of this.runs.values()) this.deps.timers.cancel(run.timer);
    this.runs.clear();
  }

  private stop(target: AgentConversation): ActiveRun | undefined {
    const run = this.runs.get(target.hex);
    if (!run) return undefined;
    this.deps.timers.cancel(run.timer);
    this.runs.delete(target.hex);
    return run;
  }

  private schedule(run: ActiveRun): void {
    run.timer = this.deps.timers.after(this.deps.settings.agentStepMs, () => this.advance(run));
  }

  private advance(run: ActiveRun): void {
    if (this.runs.get(run.target.hex) !== run) return;
    // Someone else (a control route, a test) moved the status on: the loop ends.
    if (run.target.conversation.execution_status !== 'running') {
      this.runs.delete(run.target.hex);
      return;
    }
    const step = run.steps[run.index++];
    const result = step ? step(run) : 'stop';
    if (result === 'stop' || run.index >= run.steps.length) {
      if (this.runs.get(run.target.hex) === run) this.runs.delete(run.target.hex);
      return;
    }
    this.schedule(run);
  }

  private plan(target: AgentConversation): Step[] {
    const llm = this.deps.settings.llm;
    // no LLM call goes out: the run says "running" and nothing more, until paused or stopped
    if (llm === 'silent') return [() => 'next', () => 'stop'];
    // the first LLM call fails: local_conversation.py `run` ends it with the exception's class and text
    if (llm !== 'scripted') return [(run) => this.failed(run, llm.code, llm.detail)];
    const events = target.agent.events;
    const steps: Step[] = [];
    const pending = pendingActions(events);
    for (const action of pending) steps.push((run) => this.observe(run, action));
    if (pending.some((action) => action['tool_name'] === 'finish')) {
      steps.push((run) => this.finished(run));
      return steps;
    }
    const last = lastActionSinceUserMessage(events);
    // The user has decided on what waited (ran it now, or rejected it): the agent wraps up.
    if (pending.length > 0 || (last !== undefined && wasRejected(events, last))) {
      steps.push(...this.phaseSteps('finish', target));
      return steps;
    }
    const lastTool = last ? (stringField(last, 'tool_name') ?? '') : 'finish';
    if (lastTool === 'finish') steps.push((run) => this.streamDeltas(run));
    const from = lastTool === 'finish' ? 0 : PHASES.indexOf(lastTool as (typeof PHASES)[number]) + 1;
    for (const phase of PHASES.slice(from)) steps.push(...this.phaseSteps(phase, target));
    return steps;
  }

  private failed(run: ActiveRun, code: string, detail: string): StepResult {
    const { target } = run;
    this.conversations.setStatus(target, 'error');
    this.conversations.append(target, this.conversations.factory.conversationError(code, detail));
    return 'stop';
  }

  private phaseSteps(phase: (typeof PHASES)[number], target: AgentConversation): Step[] {
    const scenario = this.scenario;
    const observeInFlight: Step = (run) => (run.inFlight ? this.observe(run, run.inFlight) : 'next');
    switch (phase) {
      case 'think':
        return [(run) => this.act(run, thinkCall(scenario.thought)), observeInFlight];
      case 'terminal':
        return [
          (run) => this.act(run, terminalCall(scenario.terminal.command, scenario.terminal.securityRisk)),
          observeInFlight,
        ];
      case 'file_editor':
        return [
          (run) =>
            this.act(
              run,
              fileEditCall(
                `${target.sandboxDir}/${scenario.edit.file}`,
                scenario.edit.oldStr,
                scenario.edit.newStr,
              ),
            ),
          observeInFlight,
        ];
      case 'finish':
        return [
          (run) => this.act(run, finishCall(scenario.finish)),
          observeInFlight,
          (run) => this.finished(run),
        ];
    }
  }

  private streamDeltas(run: ActiveRun): StepResult {
    const { factory } = this.conversations;
    this.conversations.broadcast(run.target, factory.streamingDelta(''));
    this.conversations.broadcast(run.target, factory.streamingDelta(this.scenario.streamed));
    return 'next';
  }

  /** The action, then the `stats` update created before it but stored after it (older timestamp). */
  private act(run: ActiveRun, call: ToolCall): StepResult {
    const { target } = run;
    const { factory } = this.conversations;
    const statsAt = factory.clock.nowMicros();
    const responseId = factory.token('chatcmpl-', 24);
    const action = this.conversations.append(target, factory.action(call, undefined, responseId));
    const model = target.conversation.llm_model ?? DEFAULT_AGENT_MODEL;
    target.agent.stats = addUsage(target.agent.stats, model, 4200, 180, responseId);
    this.conversations.append(target, factory.stateUpdate('stats', target.agent.stats, statsAt));
    if (needsConfirmation(target.agent.confirmation_policy, call.toolName, call.securityRisk)) {
      this.conversations.setStatus(target, 'waiting_for_confirmation');
      this.conversations.broadcastFullState(target);
      return 'stop';
    }
    run.inFlight = action;
    return 'next';
  }

  private observe(run: ActiveRun, action: AgentEvent): StepResult {
    const { target } = run;
    const observation =
      this.deps.editFile?.(target, action) ?? observationFor(action, target.sandboxDir, target.hex);
    this.conversations.append(target, this.conversations.factory.observation(action, observation));
    if (run.inFlight === action) run.inFlight = null;
    return 'next';
  }

  private finished(run: ActiveRun): StepResult {
    this.conversations.setStatus(run.target, 'finished');
    this.conversations.broadcastFullState(run.target);
    return 'stop';
  }
}

function lastActionSinceUserMessage(events: readonly AgentEvent[]): AgentEvent | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (!event) continue;
    if (event.kind === 'ActionEvent') return event;
    if (event.kind === 'MessageEvent' && event.source === 'user') return undefined;
  }
  return undefined;
}

function wasRejected(events: readonly AgentEvent[], action: AgentEvent): boolean {
  return events.some((event) => event.kind === 'UserRejectObservation' && event['action_id'] === action.id);
}
