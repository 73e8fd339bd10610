// Wire views computed from stored records at request time: what depends on a sandbox's live status
// (keys, URLs, execution status) is derived here, never stored.
import type { AppConversation, ConversationRecord, SandboxInfo, SandboxRecord } from './models';
import { agentServerUrl, exposedUrlsFor } from './sandboxUrls';
import { findSandbox, type ServerState } from './state';

const DEFAULT_WORKING_DIR = '/home/openhands/workspace';

/** The spec's working dir (the VS Code URL's folder); the agent-server double works in its own directory. */
export function sandboxWorkingDir(sandbox: SandboxRecord | undefined, state: ServerState): string {
  return state.specs.find((spec) => spec.id === sandbox?.sandbox_spec_id)?.working_dir ?? DEFAULT_WORKING_DIR;
}

export function sandboxView(sandbox: SandboxRecord, state: ServerState, baseUrl: string): SandboxInfo {
  const running = sandbox.status === 'RUNNING';
  const workingDir = sandboxWorkingDir(sandbox, state);
  return {
    id: sandbox.id,
    created_by_user_id: sandbox.created_by_user_id,
    sandbox_spec_id: sandbox.sandbox_spec_id,
    status: sandbox.status,
    session_api_key: running ? sandbox.session_api_key : null,
    exposed_urls: running ? exposedUrlsFor(baseUrl, sandbox.id, sandbox.session_api_key, workingDir) : null,
    created_at: sandbox.created_at,
  };
}

/**
 * `withSubConversations`: only the batch get fills `sub_conversation_ids`; search leaves it `[]`.
 */
export function conversationView(
  conversation: ConversationRecord,
  state: ServerState,
  baseUrl: string,
  withSubConversations: boolean,
): AppConversation {
  const sandbox = findSandbox(state, conversation.sandbox_id);
  const running = sandbox?.status === 'RUNNING';
  return {
    id: conversation.id,
    created_by_user_id: conversation.created_by_user_id,
    sandbox_id: conversation.sandbox_id,
    selected_repository: conversation.selected_repository,
    selected_branch: conversation.selected_branch,
    git_provider: conversation.git_provider,
    title: conversation.title,
    trigger: conversation.trigger,
    pr_number: [...conversation.pr_number],
    llm_model: conversation.llm_model,
    metrics: conversation.metrics,
    parent_conversation_id: conversation.parent_conversation_id,
    sub_conversation_ids: withSubConversations
      ? state.conversations
          .filter((other) => other.parent_conversation_id === conversation.id)
          .map((other) => other.id)
      : [],
    created_at: conversation.created_at,
    updated_at: conversation.updated_at,
    sandbox_status: sandbox?.status ?? 'MISSING',
    execution_status: running ? conversation.execution_status : null,
    conversation_url: running
      ? `${agentServerUrl(baseUrl, conversation.sandbox_id)}/api/conversations/${conversation.id}`
      : null,
    session_api_key: running ? sandbox.session_api_key : null,
  };
}
