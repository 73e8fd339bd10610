// Deterministic stored transcripts for seeded conversations: every kind a panel must render (system
// prompt, messages, think, terminal with exit codes, file edits with old/new content, an agent
// error, a condensation, an unknown kind, …) and an ending that matches the conversation's status.
import { dashedUuid, IdFactory } from '../ids';
import type { ConversationRecord, ExecutionStatus } from '../models';
import { Prng } from '../prng';
import { INITIAL_MESSAGES } from '../sampleData';
import type { ServerState } from '../state';
import { parseWireTime } from '../time';
import { DEFAULT_AGENT_MODEL } from './conversationInfo';
import { EventFactory } from './eventFactory';
import { textContent, type AgentEvent } from './events';
import { observationFor } from './observations';
import { addUsage, emptyAgentConversation, listedMetrics, type AgentConversationRecord } from './records';
import {
  afterEdit,
  CONFIRMABLE_COMMANDS,
  largeTerminalOutput,
  MARKDOWN_REPLY,
  seededScenario,
  type TerminalStep,
} from './scenario';
import {
  fileEditCall,
  fileEditorObservation,
  finishCall,
  invalidFileEditCall,
  terminalCall,
  terminalObservation,
  thinkCall,
  type ToolCall,
} from './toolCalls';

export interface TranscriptTraits {
  /** Ends with an agent MessageEvent in markdown (with HTML a client must sanitise). */
  markdownReply: boolean;
  /** One terminal observation holds ~200 KB of output. */
  largeOutput: boolean;
}

export interface TranscriptInput {
  conversation: ConversationRecord;
  workingDir: string;
  traits: TranscriptTraits;
  seed: number;
}

/** FNV-1a: a per-conversation seed, so one transcript does not depend on how many came before. */
function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

const PASSING_TESTS: TerminalStep = {
  command: 'npm test',
  output: '> webapp@2.4.0 test\n> mocha\n\n  42 passing (1s)',
  exitCode: 0,
  securityRisk: 'LOW',
};

class TranscriptWriter {
  readonly events: AgentEvent[] = [];
  readonly record: AgentConversationRecord = emptyAgentConversation();
  readonly factory: EventFactory;
  private readonly model: string;

  constructor(
    private readonly random: Prng,
    startMicros: number,
    model: string,
    private readonly workingDir: string,
    private readonly conversationHex: string,
    /** The seeded conversation's budget, which each stats update carries. */
    private readonly budget: number | null,
  ) {
    const ids = new IdFactory(random);
    let cursor = startMicros;
    this.factory = new EventFactory({
      nextUuid: () => dashedUuid(ids.uuidHex()),
      nowMicros: () => (cursor += random.int(40_000, 1_500_000)),
    });
    this.model = model;
  }

  add(event: AgentEvent): AgentEvent {
    this.events.push(event);
    return event;
  }

  status(status: ExecutionStatus): void {
    this.add(this.factory.stateUpdate('execution_status', status));
  }

  userMessage(text: string): void {
    const message = this.add(this.factory.userMessage([textContent(text)]));
    this.record.last_user_message_id = message.id;
    this.add(this.factory.stateUpdate('last_user_message_id', message.id));
  }

  /** The action and its `stats` update, stamped before the action (as the real server does). */
  act(call: ToolCall): AgentEvent {
    const statsAt = this.factory.clock.nowMicros() - 1;
    const responseId = this.factory.token('chatcmpl-', 24);
    const action = this.add(this.factory.action(call, undefined, responseId));
    this.record.stats = addUsage(
      this.record.stats,
      this.model,
      this.random.int(3_000, 40_000),
      this.random.int(50, 900),
      responseId,
      this.budget,
    );
    this.add(this.factory.stateUpdate('stats', this.record.stats, statsAt));
    return action;
  }

  observe(action: AgentEvent, observation?: Record<string, unknown>): AgentEvent {
    return this.add(
      this.factory.observation(
        action,
        observation ?? observationFor(action, this.workingDir, this.conversationHex),
      ),
    );
  }

  terminal(step: TerminalStep, output = step.output): void {
    const action = this.act(terminalCall(step.command, step.securityRisk));
    this.observe(
      action,
      terminalObservation(step.command, output, step.exitCode, this.workingDir, this.conversationHex),
    );
  }

  alwaysConfirm(): void {
    this.record.confirmation_policy = { kind: 'AlwaysConfirm' };
    this.add(this.factory.stateUpdate('confirmation_policy', { kind: 'AlwaysConfirm' }));
  }
}

export function seedTranscript(input: TranscriptInput): AgentConversationRecord {
  const { conversation, workingDir, traits } = input;
  const random = new Prng((input.seed ^ hashText(conversation.id)) >>> 0);
  const writer = new TranscriptWriter(
    random,
    parseWireTime(conversation.created_at) + 2_000_000,
    conversation.llm_model ?? DEFAULT_AGENT_MODEL,
    workingDir,
    conversation.id,
    conversation.metrics?.max_budget_per_task ?? null,
  );
  const { factory } = writer;
  const scenario = seededScenario(random);
  const status = conversation.execution_status;
  const rejectVariant = status === 'idle' && random.chance(0.5);

  writer.add(factory.systemPrompt());
  writer.userMessage(
    `${conversation.title ?? 'Help me with this repository'}. ${random.pick(INITIAL_MESSAGES)}`,
  );
  if (status === 'waiting_for_confirmation' || rejectVariant) writer.alwaysConfirm();
  writer.status('running');

  const think = writer.act(thinkCall(scenario.thought));
  const thinkObservation = writer.observe(think);
  writer.terminal(scenario.terminal);

  const path = `${workingDir}/${scenario.edit.file}`;
  const invalid = writer.act(invalidFileEditCall(path));
  writer.add(
    factory.agentError(
      invalid,
      `Error validating args {"command": "str_replace", "path": "${path}"} for tool 'file_editor': old_str is required for command 'str_replace'`,
    ),
  );
  writer.add(factory.futureEvent());
  const edit = writer.act(fileEditCall(path, scenario.edit.oldStr, scenario.edit.newStr));
  writer.observe(edit, fileEditorObservation(path, scenario.edit.before, afterEdit(scenario.edit)));
  writer.add(
    factory.condensation(
      [think.id, thinkObservation.id],
      `The user asked: ${conversation.title ?? 'a change'}. I explored the repository and edited ${scenario.edit.file}.`,
      2,
    ),
  );
  writer.terminal(PASSING_TESTS, traits.largeOutput ? largeTerminalOutput() : PASSING_TESTS.output);

  switch (status) {
    case 'finished':
      if (traits.markdownReply) {
        writer.add(factory.agentMessage(MARKDOWN_REPLY));
        writer.status('finished');
      } else {
        writer.observe(writer.act(finishCall(scenario.finish)));
        writer.status('finished');
      }
      break;
    case 'running':
      // The build is still running: an action without its observation yet.
      writer.act(terminalCall('npm run build', 'LOW'));
      break;
    case 'waiting_for_confirmation':
      writer.act(terminalCall(random.pick(CONFIRMABLE_COMMANDS).command, 'HIGH'));
      writer.status('waiting_for_confirmation');
      break;
    case 'paused':
      writer.status('paused');
      writer.add(factory.pause());
      break;
    case 'error':
      writer.status('error');
      writer.add(
        random.chance(0.5)
          ? factory.conversationError('MaxIterationsReached', 'Agent reached maximum iterations limit (500).')
          : factory.conversationError(
              'LLMContextWindowExceedError',
              'Conversation history exceeds the context window of the model and cannot be condensed further.',
            ),
      );
      break;
    case 'stuck':
      writer.terminal(PASSING_TESTS);
      writer.terminal(PASSING_TESTS);
      writer.status('stuck');
      break;
    case 'idle':
      if (rejectVariant) {
        const risky = writer.act(terminalCall('rm -rf node_modules && npm ci', 'MEDIUM'));
        writer.status('waiting_for_confirmation');
        writer.status('idle');
        writer.add(factory.userReject(risky, 'Please do not reinstall the dependencies.'));
      } else {
        writer.observe(writer.act(finishCall(scenario.finish)));
        writer.status('finished');
        writer.status('idle');
        writer.userMessage(
          'Thanks! Could you also add a line to the changelog? (no rush, I will start it later)',
        );
      }
      break;
  }
  return { ...writer.record, events: writer.events };
}

/** Which seeded conversations carry the special traits: stable for a given seed. */
export function transcriptTraits(
  conversations: readonly ConversationRecord[],
): Map<string, TranscriptTraits> {
  const finished = conversations.filter((conversation) => conversation.execution_status === 'finished');
  const markdownId = finished[0]?.id;
  const quiet = conversations.filter(
    (conversation) =>
      (conversation.execution_status === 'finished' || conversation.execution_status === 'idle') &&
      conversation.id !== markdownId,
  );
  const largeId = quiet[quiet.length - 1]?.id ?? markdownId;
  return new Map(
    conversations.map((conversation) => [
      conversation.id,
      { markdownReply: conversation.id === markdownId, largeOutput: conversation.id === largeId },
    ]),
  );
}

/**
 * A transcript for every seeded conversation (run by seedState after everything else is drawn); paths
 * in it lie in the conversation's sandbox directory.
 */
export function seedAgentConversations(
  state: ServerState,
  seed: number,
  sandboxDir: (sandboxId: string) => string,
): void {
  const traits = transcriptTraits(state.conversations);
  for (const conversation of state.conversations) {
    const record = seedTranscript({
      conversation,
      workingDir: sandboxDir(conversation.sandbox_id),
      traits: traits.get(conversation.id) ?? { markdownReply: false, largeOutput: false },
      seed,
    });
    state.agentConversations.set(conversation.id, record);
    // the app server lists what the agent's stats updates said (a transcript without LLM calls keeps
    // the drawn metrics, null for some: an older server's)
    conversation.metrics = listedMetrics(record.stats) ?? conversation.metrics;
  }
}
