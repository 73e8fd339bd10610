// The conversation as the agent server describes it: `ConversationInfo` on REST (a response model, so
// nulls are kept) and the synthetic `full_state` value on the WebSocket (exclude_none).
import { dashedUuid } from '../ids';
import type { ConversationRecord } from '../models';
import type { AgentConversationRecord } from './records';
import { agentObject } from './toolCatalog';
import { persistenceDir, PROCESS_WORKING_DIR } from './workspaces';

/** The SDK's default model, what a conversation started without settings runs on. */
export const DEFAULT_AGENT_MODEL = 'gpt-5.5';

export interface ConversationParts {
  conversation: ConversationRecord;
  agent: AgentConversationRecord;
  /** The sandbox directory (absolute): the agent server's cwd, where the terminal and edits work. */
  sandboxDir: string;
}

/** As a process sandbox reports them: both relative to the agent server's cwd. */
function stateFields({ conversation, agent }: ConversationParts): Record<string, unknown> {
  return {
    id: dashedUuid(conversation.id),
    workspace: { working_dir: PROCESS_WORKING_DIR, kind: 'LocalWorkspace' },
    persistence_dir: persistenceDir(conversation.id),
    max_iterations: 500,
    stuck_detection: true,
    execution_status: conversation.execution_status,
    confirmation_policy: { ...agent.confirmation_policy },
    security_analyzer: agent.security_analyzer,
    activated_knowledge_skills: [],
    invoked_skills: [],
    blocked_actions: {},
    blocked_messages: {},
    last_user_message_id: agent.last_user_message_id,
    stats: agent.stats,
    secret_registry: { secret_sources: {} },
    agent_state: {},
    hook_config: null,
  };
}

export function conversationInfo(parts: ConversationParts): Record<string, unknown> {
  const { conversation, agent } = parts;
  return {
    ...stateFields(parts),
    title: conversation.title,
    metrics: null,
    created_at: conversation.created_at,
    updated_at: conversation.updated_at,
    tags: { ...agent.tags },
    agent: agentObject(conversation.llm_model ?? DEFAULT_AGENT_MODEL, agent.llm_usage_id),
  };
}

/** `state.model_dump(mode="json", exclude_none=True)`: the value of a `full_state` update. */
export function fullStateValue(parts: ConversationParts): Record<string, unknown> {
  const { id, ...rest } = stateFields(parts);
  const value: Record<string, unknown> = {
    id,
    agent: agentObject(parts.conversation.llm_model ?? DEFAULT_AGENT_MODEL, parts.agent.llm_usage_id),
    ...rest,
    tags: { ...parts.agent.tags },
  };
  for (const [name, field] of Object.entries(value)) if (field === null) delete value[name];
  return value;
}
