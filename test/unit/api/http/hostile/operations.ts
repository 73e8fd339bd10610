// The client calls the hostile suite makes, to the app server and to a sandbox's agent server, each with
// the reply a correct server would give and a check that the value came through intact (the text in it
// has characters that UTF-8 spreads over 2-4 bytes).
import type { AgentServerClient, OpenHandsClient } from '../../../../../src/api';

/** What one call sends that must never be seen again in an error or a log. */
export interface CallSecrets {
  apiKey: string;
  providerToken: string;
  mcpApiKey: string;
  envValue: string;
  /** Sent inside an MCP server URL's query string (`?api_key=…`). */
  urlCredential: string;
  /** Sent as a stdio server's `--token=…` argument. */
  argCredential: string;
}

/** The clients of one call, both pointed at its prefix on the hostile server. */
export interface Clients {
  app: OpenHandsClient;
  /** A sandbox's agent server; the call's `apiKey` is its session key (`X-Session-API-Key`). */
  agent: AgentServerClient;
}

export interface Operation {
  name: string;
  /** Which client makes the call: the agent server's never retries a 429 (a POST could run the agent twice). */
  server: 'app' | 'agent';
  method: 'GET' | 'POST' | 'DELETE';
  /** The reply arrives as a streamed JSON array (`stream-start`). */
  streamed: boolean;
  /** The reply is kept as bytes (a file, a patch): whatever a well-framed 2xx reply holds is its value. */
  bytes?: boolean;
  /** Requests a correct exchange takes (paging reads two pages). */
  requests: number;
  run(clients: Clients, secrets: CallSecrets): Promise<unknown>;
  /** A correct reply to request number `attempt`, as a JSON value (a stream: its elements). */
  reply(text: string, attempt: number): unknown;
  /**
   * The same reply carrying a secret the client READS: a sandbox's session key (in `session_api_key`, and
   * in the `tkn=` of a VS Code URL where the reply lists URLs), or the settings' search key.
   */
  replyWithKey(text: string, attempt: number, key: string): unknown;
  /** Whether the result carries `text` where the reply put it. */
  intact(result: unknown, text: string): boolean;
}

const SANDBOX_ID = 'sb-hostile';
const CONVERSATION_ID = '0123456789abcdef0123456789abcdef';

function conversation(title: string) {
  return { id: CONVERSATION_ID, sandbox_id: SANDBOX_ID, title, sandbox_status: 'RUNNING' };
}

function startTask(status: string, detail: string | null) {
  return { id: 'fedcba9876543210fedcba9876543210', status, detail };
}

function keyedSandbox(id: string, key: string) {
  return {
    id,
    status: 'RUNNING',
    session_api_key: key,
    exposed_urls: [
      { name: 'AGENT_SERVER', url: 'http://127.0.0.1:8000' },
      { name: 'VSCODE', url: `http://127.0.0.1:8001/?tkn=${key}&folder=/workspace/project` },
    ],
  };
}

function keyed<T extends object>(value: T, key: string): T & { session_api_key: string } {
  return { ...value, session_api_key: key };
}

function mcpConfig(secrets: CallSecrets) {
  return {
    sse_servers: [
      { url: `https://mcp.example.com/sse?api_key=${secrets.urlCredential}`, api_key: secrets.mcpApiKey },
    ],
    shttp_servers: [],
    stdio_servers: [
      {
        name: 'tools',
        command: 'npx',
        args: ['-y', 'tools', `--token=${secrets.argCredential}`],
        env: { TOOLS_TOKEN: secrets.envValue },
      },
    ],
  };
}

function field(value: unknown, ...path: (string | number)[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

const APP_OPERATIONS: Operation[] = [
  {
    name: 'searchSandboxes',
    server: 'app',
    method: 'GET',
    streamed: false,
    requests: 1,
    run: ({ app: client }) => client.searchSandboxes(),
    reply: (text) => ({
      items: [{ id: text, status: 'RUNNING', session_api_key: null }],
      next_page_id: null,
    }),
    replyWithKey: (text, _attempt, key) => ({ items: [keyedSandbox(text, key)], next_page_id: null }),
    intact: (result, text) => field(result, 'items', 0, 'id') === text,
  },
  {
    name: 'getSettings',
    server: 'app',
    method: 'GET',
    streamed: false,
    requests: 1,
    run: ({ app: client }) => client.getSettings(),
    reply: (text) => ({ llm_model: text, provider_tokens_set: {}, mcp_config: null }),
    replyWithKey: (text, _attempt, key) => ({
      llm_model: text,
      provider_tokens_set: {},
      mcp_config: null,
      search_api_key: key,
    }),
    intact: (result, text) => field(result, 'llm_model') === text,
  },
  {
    name: 'getConversations',
    server: 'app',
    method: 'GET',
    streamed: false,
    requests: 1,
    run: ({ app: client }) => client.getConversations([CONVERSATION_ID]),
    reply: (text) => [conversation(text)],
    replyWithKey: (text, _attempt, key) => [keyed(conversation(text), key)],
    intact: (result, text) => field(result, 0, 'title') === text,
  },
  {
    name: 'listSandboxConversations',
    server: 'app',
    method: 'GET',
    streamed: false,
    requests: 2,
    run: ({ app: client }) => client.listSandboxConversations(SANDBOX_ID),
    reply: (text, attempt) =>
      attempt === 1
        ? { items: [conversation(text)], next_page_id: '1' }
        : { items: [conversation(`${text}/2`)], next_page_id: null },
    replyWithKey: (text, attempt, key) =>
      attempt === 1
        ? { items: [keyed(conversation(text), key)], next_page_id: '1' }
        : { items: [keyed(conversation(`${text}/2`), key)], next_page_id: null },
    intact: (result, text) =>
      field(result, 'items', 0, 'title') === text && field(result, 'items', 1, 'title') === `${text}/2`,
  },
  {
    name: 'pauseSandbox',
    server: 'app',
    method: 'POST',
    streamed: false,
    requests: 1,
    run: ({ app: client }) => client.pauseSandbox(SANDBOX_ID),
    reply: (text) => ({ success: true, note: text }),
    replyWithKey: (text, _attempt, key) => keyed({ success: true, note: text }, key),
    intact: (result, text) => field(result, 'note') === text,
  },
  {
    name: 'deleteSandbox',
    server: 'app',
    method: 'DELETE',
    streamed: false,
    requests: 1,
    run: ({ app: client }) => client.deleteSandbox(SANDBOX_ID),
    reply: (text) => ({ success: true, note: text }),
    replyWithKey: (text, _attempt, key) => keyed({ success: true, note: text }, key),
    intact: (result, text) => field(result, 'note') === text,
  },
  {
    name: 'storeProviderTokens',
    server: 'app',
    method: 'POST',
    streamed: false,
    requests: 1,
    run: ({ app: client }, secrets) =>
      client.storeProviderTokens({
        provider_tokens: { github: { token: secrets.providerToken, host: 'github.com' } },
        mcp_config: mcpConfig(secrets),
      }),
    reply: (text) => ({ message: text }),
    replyWithKey: (text, _attempt, key) => keyed({ message: text }, key),
    intact: (result, text) => field(result, 'message') === text,
  },
  {
    name: 'storeSettings',
    server: 'app',
    method: 'POST',
    streamed: false,
    requests: 1,
    run: ({ app: client }, secrets) => client.storeSettings({ mcp_config: mcpConfig(secrets) }),
    reply: (text) => ({ message: text }),
    replyWithKey: (text, _attempt, key) => keyed({ message: text }, key),
    intact: (result, text) => field(result, 'message') === text,
  },
  {
    name: 'createConversationStreaming',
    server: 'app',
    method: 'POST',
    streamed: true,
    requests: 1,
    run: ({ app: client }) =>
      client.createConversationStreaming({
        initial_message: { content: [{ type: 'text', text: 'Fix the build.' }] },
      }),
    reply: (text) => [startTask('WORKING', null), startTask('READY', text)],
    replyWithKey: (text, _attempt, key) => [startTask('WORKING', null), keyed(startTask('READY', text), key)],
    intact: (result, text) => field(result, 'status') === 'READY' && field(result, 'detail') === text,
  },
];

function messageEvent(text: string) {
  return {
    id: '5f0c2a4e-9d1b-4c3a-8e7f-6a5b4c3d2e1f',
    timestamp: '2026-11-22T21:09:40.880019',
    source: 'user',
    kind: 'MessageEvent',
    llm_message: { role: 'user', content: [{ type: 'text', text }] },
  };
}

function eventPage(text: string, nextPageId: string | null) {
  return { items: [messageEvent(text)], next_page_id: nextPageId };
}

/** A file or a patch as the agent server sends it: here JSON, so that a check can find the text in it. */
function fileBytes(text: string) {
  return { content: text };
}

function bytesCarry(bytes: unknown, text: string): boolean {
  if (!Buffer.isBuffer(bytes)) return false;
  try {
    return field(JSON.parse(bytes.toString('utf8')), 'content') === text;
  } catch {
    return false;
  }
}

/** Agent-server calls that answer `{"success": true}`; the note carries the text back. */
function successCall(name: string, run: (agent: AgentServerClient) => Promise<unknown>): Operation {
  return {
    name,
    server: 'agent',
    method: 'POST',
    streamed: false,
    requests: 1,
    run: ({ agent }) => run(agent),
    reply: (text) => ({ success: true, note: text }),
    replyWithKey: (text, _attempt, key) => keyed({ success: true, note: text }, key),
    intact: (result, text) => field(result, 'success') === true && field(result, 'note') === text,
  };
}

const AGENT_OPERATIONS: Operation[] = [
  {
    name: 'searchEvents',
    server: 'agent',
    method: 'GET',
    streamed: false,
    requests: 1,
    run: ({ agent }) => agent.searchEvents(),
    reply: (text) => eventPage(text, null),
    replyWithKey: (text, _attempt, key) => keyed(eventPage(text, null), key),
    intact: (result, text) => field(result, 'items', 0, 'llm_message', 'content', 0, 'text') === text,
  },
  {
    name: 'searchEvents, an older page',
    server: 'agent',
    method: 'GET',
    streamed: false,
    requests: 1,
    run: ({ agent }) =>
      agent.searchEvents({
        pageId: '5f0c2a4e-0000-4c3a-8e7f-6a5b4c3d2e1f',
        limit: 50,
        sortOrder: 'TIMESTAMP_DESC',
      }),
    reply: (text) => eventPage(text, '5f0c2a4e-1111-4c3a-8e7f-6a5b4c3d2e1f'),
    replyWithKey: (text, _attempt, key) =>
      keyed(eventPage(text, '5f0c2a4e-1111-4c3a-8e7f-6a5b4c3d2e1f'), key),
    intact: (result, text) =>
      field(result, 'items', 0, 'llm_message', 'content', 0, 'text') === text &&
      field(result, 'next_page_id') === '5f0c2a4e-1111-4c3a-8e7f-6a5b4c3d2e1f',
  },
  successCall('sendMessage', (agent) => agent.sendMessage('Fix the build, then run the tests.', true)),
  successCall('run', (agent) => agent.run()),
  successCall('pause', (agent) => agent.pause()),
  successCall('respondToConfirmation, accept', (agent) => agent.respondToConfirmation(true)),
  successCall('respondToConfirmation, reject', (agent) =>
    agent.respondToConfirmation(false, 'Not on the main branch'),
  ),
  {
    name: 'gitChanges',
    server: 'agent',
    method: 'GET',
    streamed: false,
    requests: 1,
    run: ({ agent }) => agent.gitChanges('.'),
    reply: (text) => [{ status: 'ADDED', path: text }],
    replyWithKey: (text, _attempt, key) => [keyed({ status: 'ADDED', path: text }, key)],
    intact: (result, text) => field(result, 0, 'path') === text && field(result, 0, 'status') === 'ADDED',
  },
  {
    name: 'gitDiff',
    server: 'agent',
    method: 'GET',
    streamed: false,
    requests: 1,
    run: ({ agent }) => agent.gitDiff('src/app.ts'),
    reply: (text) => ({ modified: text, original: null }),
    replyWithKey: (text, _attempt, key) => keyed({ modified: text, original: null }, key),
    intact: (result, text) => field(result, 'modified') === text && field(result, 'original') === null,
  },
  {
    name: 'downloadFile',
    server: 'agent',
    method: 'GET',
    streamed: false,
    bytes: true,
    requests: 1,
    run: ({ agent }) => agent.downloadFile('/workspace/project/src/app.ts'),
    reply: (text) => fileBytes(text),
    replyWithKey: (text, _attempt, key) => keyed(fileBytes(text), key),
    intact: (result, text) => bytesCarry(result, text),
  },
  {
    name: 'workspaceDelta',
    server: 'agent',
    method: 'GET',
    streamed: false,
    bytes: true,
    requests: 1,
    run: ({ agent }) => agent.workspaceDelta('/workspace/project', { exclude: ['node_modules/'] }),
    reply: (text) => fileBytes(text),
    replyWithKey: (text, _attempt, key) => keyed(fileBytes(text), key),
    intact: (result, text) => bytesCarry(field(result, 'patch'), text),
  },
];

export const OPERATIONS: Operation[] = [...APP_OPERATIONS, ...AGENT_OPERATIONS];
