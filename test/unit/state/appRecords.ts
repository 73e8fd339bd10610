// Conversations and sandboxes as the client parses them from the app server, with fixed times, for
// the tests of what the extension makes of them (rows, names, merges) without a server.
import type { AppConversation, SandboxInfo } from '../../../src/api';

/** The fixed "now" of these tests; every time below is relative to it. */
export const NOW = Date.parse('2026-03-01T12:00:00Z');

export function minutesAgo(minutes: number): string {
  return new Date(NOW - minutes * 60_000).toISOString();
}

export function conversation(id: number, extra: Partial<AppConversation> = {}): AppConversation {
  return {
    id: id.toString(16).padStart(32, '0'),
    created_by_user_id: null,
    sandbox_id: 'oh-agent-server-aaa',
    selected_repository: null,
    selected_branch: null,
    git_provider: null,
    title: `Conversation number ${id}`,
    trigger: null,
    pr_number: [],
    llm_model: null,
    metrics: null,
    parent_conversation_id: null,
    sub_conversation_ids: [],
    created_at: minutesAgo(1000 - id),
    updated_at: minutesAgo(1000 - id),
    sandbox_status: 'RUNNING',
    execution_status: 'idle',
    conversation_url: null,
    session_api_key: null,
    ...extra,
  };
}

export function sandbox(id: string, extra: Partial<SandboxInfo> = {}): SandboxInfo {
  return {
    id,
    created_by_user_id: null,
    sandbox_spec_id: 'ghcr.io/openhands/agent-server:4e2ecd8-python',
    status: 'RUNNING',
    session_api_key: 'session-key',
    exposed_urls: [],
    created_at: minutesAgo(90),
    status_detail: null,
    ...extra,
  };
}
