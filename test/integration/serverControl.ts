// Drives the seeded test server from inside the extension host through its /__control routes.
import { testServerUrl } from './env';

export interface FaultRule {
  kind: 'latency' | 'status' | 'rate_limit' | 'malformed_json' | 'html' | 'reset' | 'hang' | 'drift';
  match?: { method?: string; path?: string; pathRegex?: string };
  times?: number;
  ms?: number;
  status?: number;
  body?: unknown;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string[]>;
  headers: Record<string, string>;
  /** Parsed JSON, the raw text when it is not JSON, or undefined when there was no body. */
  body?: unknown;
}

async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${testServerUrl()}/__control/${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} /__control/${path}: HTTP ${response.status} ${await response.text()}`);
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

export const server = {
  reset: () => control('POST', 'reset'),
  addFault: (rule: FaultRule) => control('POST', 'faults', rule),
  clearFaults: () => control('DELETE', 'faults'),
  failNextStart: (detail: string) => control('POST', 'fail-next-start', { detail, count: 1 }),
  /** Holds every start at STARTING_CONVERSATION (`true`) until called with `false`. */
  holdStarts: (on: boolean) => control('POST', 'hold-starts', { on }),
  clearRequests: () => control('DELETE', 'requests'),
  /** Merges into the stored settings; null removes them (a fresh OpenHands: `GET /api/v1/settings` is 404). */
  setSettings: (settings: Record<string, unknown> | null) => control('POST', 'state/settings', settings),
  /** Changes a conversation's stored fields (as the server would, e.g. a title or an agent's status). */
  patchConversation: (id: string, fields: Record<string, unknown>) =>
    control('POST', `state/conversations/${id}`, fields),
  /** Changes a sandbox's stored fields: a new `session_api_key` is what a pause and a resume leave. */
  patchSandbox: (id: string, fields: { status?: string; session_api_key?: string }) =>
    control('POST', `state/sandboxes/${id}`, fields),
  /** Deletes a conversation as another client would. */
  deleteConversation: (id: string) => control('DELETE', `state/conversations/${id}`),
  /** TCP connections the server accepted since its last reset (this file's own requests too). */
  connections: async () => ((await control('GET', 'connections')) as { accepted: number }).accepted,
  requests: async (): Promise<RecordedRequest[]> => {
    const reply = (await control('GET', 'requests')) as RecordedRequest[] | { requests: RecordedRequest[] };
    return Array.isArray(reply) ? reply : reply.requests;
  },
};

/** The agent-server double of the test server's running sandboxes. */
export const agentServer = {
  append: (conversationId: string, events: Record<string, unknown>[]) =>
    control('POST', `agent/conversations/${conversationId}/events`, { events }),
  stream: (conversationId: string, deltas: string[]) =>
    control('POST', `agent/conversations/${conversationId}/stream`, { deltas }),
  run: (conversationId: string) => control('POST', `agent/conversations/${conversationId}/run`),
  drop: (conversationId: string, refuseMs = 0) =>
    control('POST', `agent/conversations/${conversationId}/drop`, { refuseMs }),
  events: async (conversationId: string): Promise<{ id: string; kind: string }[]> => {
    const reply = (await control('GET', `agent/conversations/${conversationId}/events`)) as
      { id: string; kind: string }[] | { events: { id: string; kind: string }[] };
    return Array.isArray(reply) ? reply : reply.events;
  },
  sockets: async (conversationId: string): Promise<number> =>
    ((await control('GET', `agent/conversations/${conversationId}/sockets`)) as { count: number }).count,
  conversations: async (): Promise<
    {
      id: string;
      sandbox_id: string;
      execution_status: string;
      event_count: number;
      ends_with_agent_message: boolean;
    }[]
  > => {
    const reply = (await control('GET', 'agent/conversations')) as { conversations: never[] } | never[];
    return Array.isArray(reply) ? reply : reply.conversations;
  },
  setOptions: (options: {
    legacy?: boolean;
    agentStepMs?: number;
    llm?: 'scripted' | 'silent' | { kind: 'fail'; code: string; detail: string };
  }) => control('POST', 'agent/options', options),
  /** Writes (null: deletes) files in the conversation's sandbox folder; `commit` makes them the base. */
  workspace: (
    conversationId: string,
    files: Record<string, string | { base64: string } | null>,
    commit?: string,
  ) =>
    control('POST', `agent/conversations/${conversationId}/workspace`, {
      files,
      commit,
    }) as Promise<WorkspaceReply>,
  /** A base commit and the agent's change on top: an update, an add, a delete, a rename, a binary, a big file. */
  sampleWorkspace: (conversationId: string) =>
    control('POST', `agent/conversations/${conversationId}/workspace/sample`) as Promise<
      WorkspaceReply & { changes: { status: string; path: string }[] }
    >,
  /** Pictures: a PNG updated, a WebP added, a JPEG deleted, a `.png` that is an SVG with a script. */
  imageWorkspace: (conversationId: string) =>
    control('POST', `agent/conversations/${conversationId}/workspace/images`) as Promise<
      WorkspaceReply & { changes: { status: string; path: string }[] }
    >,
};

export interface WorkspaceReply {
  /** The sandbox's folder on this machine (the double keeps it in a temporary folder). */
  dir: string;
  head: string | null;
}
