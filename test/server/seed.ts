// Deterministic sample data: the same seed gives the same sandboxes, conversations and start tasks
// (times are offsets from `baseTime`), so screenshots and demos are stable.
import { seedAgentConversations } from './agentServer/seedTranscript';
import { IdFactory } from './ids';
import type {
  AppConversationStartRequest,
  AppConversationStartTask,
  ConversationRecord,
  MetricsSnapshot,
  SandboxRecord,
  SandboxStatus,
} from './models';
import { Prng } from './prng';
import {
  BRANCHES,
  CONVERSATION_TITLES,
  EXECUTION_STATUS_WEIGHTS,
  INITIAL_MESSAGES,
  LLM_MODELS,
  REPOSITORIES,
  SUB_CONVERSATION_TITLES,
  TRIGGERS,
} from './sampleData';
import { seededSettings } from './settingsDefaults';
import { defaultSpecs, DEFAULT_SPEC_ID, NODE_SPEC_ID } from './specs';
import { emptyState, type ServerState } from './state';
import { agentServerUrl } from './sandboxUrls';
import { parseWireTime, wireTime } from './time';

export interface SeedInput {
  sandboxes: number;
  conversations: number;
  seed: number;
  baseTime: number;
  maxRunningSandboxes: number;
  /** Needed for the `agent_server_url` of seeded READY tasks. */
  baseUrl: string;
  /** Where each sandbox's agent server works (paths in the seeded transcripts). */
  sandboxDir(sandboxId: string): string;
}

const MINUTE_MICROS = 60_000_000;
const DAY_MICROS = 24 * 60 * MINUTE_MICROS;
/** The newest sandboxes show a representative mix before randomness takes over. */
const LEADING_STATUSES: readonly SandboxStatus[] = ['RUNNING', 'PAUSED', 'RUNNING', 'ERROR', 'STARTING'];

export function seedState(input: SeedInput): ServerState {
  const random = new Prng(input.seed);
  const ids = new IdFactory(random);
  const baseMicros = input.baseTime * 1000;
  const state = emptyState();
  state.specs = defaultSpecs(baseMicros - 30 * DAY_MICROS);
  state.settings = seededSettings();
  state.sandboxes = seedSandboxes(input, random, ids, baseMicros);
  state.conversations = seedConversations(input, random, ids, baseMicros, state.sandboxes);
  state.startTasks = state.conversations
    .filter((conversation) => conversation.parent_conversation_id === null)
    .map((conversation) => readyTaskFor(conversation, random, ids, input.baseUrl));
  // Last, with its own random streams, so the app-server data stays what it was.
  seedAgentConversations(state, input.seed, input.sandboxDir);
  return state;
}

function seedSandboxes(input: SeedInput, random: Prng, ids: IdFactory, baseMicros: number): SandboxRecord[] {
  const ages = Array.from({ length: input.sandboxes }, () =>
    random.int(5 * MINUTE_MICROS, 10 * DAY_MICROS),
  ).sort((a, b) => a - b);
  let active = 0;
  const newestFirst = ages.map((age, index): SandboxRecord => {
    let status: SandboxStatus =
      LEADING_STATUSES[index] ??
      random.weighted<SandboxStatus>([
        ['RUNNING', 3],
        ['PAUSED', 5],
        ['ERROR', 1],
      ]);
    // Never seed more live sandboxes than the server would allow to run at once.
    if (status === 'RUNNING' || status === 'STARTING') {
      if (active >= input.maxRunningSandboxes) status = 'PAUSED';
      else active++;
    }
    return {
      id: ids.sandboxId(),
      created_by_user_id: null,
      sandbox_spec_id: random.chance(0.8) ? DEFAULT_SPEC_ID : NODE_SPEC_ID,
      status,
      session_api_key: ids.sessionApiKey(),
      created_at: wireTime(baseMicros - age),
    };
  });
  // Stored in creation order, like rows inserted over time.
  return newestFirst.reverse();
}

function seedMetrics(random: Prng, model: string): MetricsSnapshot | null {
  if (random.chance(0.15)) return null;
  const promptTokens = random.int(2_000, 400_000);
  return {
    model_name: model,
    accumulated_cost: Math.round(random.next() * 3.5 * 10_000) / 10_000,
    max_budget_per_task: random.chance(0.3) ? 5 : null,
    accumulated_token_usage: {
      model,
      prompt_tokens: promptTokens,
      completion_tokens: random.int(500, 40_000),
      cache_read_tokens: Math.floor(promptTokens * random.next() * 0.8),
      cache_write_tokens: random.int(0, 20_000),
      reasoning_tokens: random.int(0, 8_000),
      context_window: 200_000,
      per_turn_token: random.int(1_000, 60_000),
      response_id: `chatcmpl-${random.hex(24)}`,
    },
  };
}

function seedConversations(
  input: SeedInput,
  random: Prng,
  ids: IdFactory,
  baseMicros: number,
  sandboxes: SandboxRecord[],
): ConversationRecord[] {
  // A sandbox that was deleted since: its conversations report MISSING.
  const goneSandboxId = ids.sandboxId();
  const titleOffset = random.int(0, CONVERSATION_TITLES.length - 1);
  const conversations = Array.from({ length: input.conversations }, (_, index): ConversationRecord => {
    const sandbox = sandboxes.length > 0 && index % 9 !== 7 ? random.pick(sandboxes) : undefined;
    const sandboxMicros = sandbox ? parseWireTime(sandbox.created_at) : baseMicros - 12 * DAY_MICROS;
    const createdMicros = sandboxMicros + Math.floor(random.next() * (baseMicros - sandboxMicros));
    const updatedMicros =
      createdMicros +
      Math.floor(random.next() * Math.min(6 * 60 * MINUTE_MICROS, baseMicros - createdMicros));
    const repository = random.weighted(REPOSITORIES);
    const trigger = random.weighted(TRIGGERS);
    const model = random.weighted(LLM_MODELS);
    const id = ids.uuidHex();
    const cycle = Math.floor(index / CONVERSATION_TITLES.length);
    const baseTitle = CONVERSATION_TITLES[(titleOffset + index) % CONVERSATION_TITLES.length] ?? 'Untitled';
    // Some conversations never got an auto-title (processors: []), as in real lists.
    const title =
      index % 10 === 9
        ? `Conversation ${id.slice(0, 5)}`
        : cycle > 0
          ? `${baseTitle} (${cycle + 1})`
          : baseTitle;
    return {
      id,
      created_by_user_id: null,
      sandbox_id: sandbox?.id ?? goneSandboxId,
      selected_repository: repository.repository,
      selected_branch: repository.repository ? random.weighted(BRANCHES) : null,
      git_provider: repository.provider,
      title,
      trigger,
      pr_number: trigger === 'resolver' ? [random.int(100, 999)] : [],
      llm_model: model,
      metrics: seedMetrics(random, model),
      parent_conversation_id: null,
      created_at: wireTime(createdMicros),
      updated_at: wireTime(updatedMicros),
      execution_status: random.weighted(EXECUTION_STATUS_WEIGHTS),
    };
  });
  conversations.sort((a, b) => parseWireTime(a.created_at) - parseWireTime(b.created_at));
  attachSubConversations(conversations);
  return conversations;
}

/** Turns a couple of later conversations into sub-conversations of earlier ones (oldest first order). */
function attachSubConversations(oldestFirst: ConversationRecord[]): void {
  const count = oldestFirst.length >= 5 ? Math.min(3, Math.max(2, Math.floor(oldestFirst.length / 10))) : 0;
  for (let made = 0; made < count; made++) {
    const parentIndex = Math.floor((made * oldestFirst.length) / (count + 1));
    const childIndex = oldestFirst.length - 1 - made * 2;
    const parent = oldestFirst[parentIndex];
    const child = oldestFirst[childIndex];
    if (!parent || !child || childIndex <= parentIndex || parent.parent_conversation_id) continue;
    Object.assign(child, {
      parent_conversation_id: parent.id,
      sandbox_id: parent.sandbox_id,
      selected_repository: parent.selected_repository,
      selected_branch: parent.selected_branch,
      git_provider: parent.git_provider,
      llm_model: parent.llm_model,
      title: SUB_CONVERSATION_TITLES[made % SUB_CONVERSATION_TITLES.length] ?? 'Sub-task',
    });
  }
}

function readyTaskFor(
  conversation: ConversationRecord,
  random: Prng,
  ids: IdFactory,
  baseUrl: string,
): AppConversationStartTask {
  const createdMicros = parseWireTime(conversation.created_at) - random.int(20, 90) * 1_000_000;
  const request: AppConversationStartRequest = {
    sandbox_id: null,
    conversation_id: null,
    initial_message: {
      role: 'user',
      content: [
        {
          cache_prompt: false,
          type: 'text',
          text: `${conversation.title ?? ''}. ${random.pick(INITIAL_MESSAGES)}`,
        },
      ],
      run: true,
    },
    processors: null,
    llm_model: null,
    agent_profile_id: null,
    selected_repository: conversation.selected_repository,
    selected_branch: conversation.selected_branch,
    git_provider: conversation.git_provider,
    title: null,
    trigger: conversation.trigger,
    pr_number: conversation.pr_number,
    parent_conversation_id: null,
    agent_type: 'default',
  };
  return {
    id: ids.uuidHex(),
    created_by_user_id: null,
    status: 'READY',
    detail: null,
    app_conversation_id: conversation.id,
    sandbox_id: conversation.sandbox_id,
    agent_server_url: agentServerUrl(baseUrl, conversation.sandbox_id),
    request,
    created_at: wireTime(createdMicros),
    updated_at: conversation.created_at,
  };
}
