// The client calls the hostile suite makes, each with the reply a correct server would give and a check
// that the value came through intact (the text in it has characters that UTF-8 spreads over 2-4 bytes).
import type { OpenHandsClient } from '../../../../src/api';

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

export interface Operation {
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** The reply arrives as a streamed JSON array (`stream-start`). */
  streamed: boolean;
  /** Requests a correct exchange takes (paging reads two pages). */
  requests: number;
  run(client: OpenHandsClient, secrets: CallSecrets): Promise<unknown>;
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

export const OPERATIONS: Operation[] = [
  {
    name: 'searchSandboxes',
    method: 'GET',
    streamed: false,
    requests: 1,
    run: (client) => client.searchSandboxes(),
    reply: (text) => ({
      items: [{ id: text, status: 'RUNNING', session_api_key: null }],
      next_page_id: null,
    }),
    replyWithKey: (text, _attempt, key) => ({ items: [keyedSandbox(text, key)], next_page_id: null }),
    intact: (result, text) => field(result, 'items', 0, 'id') === text,
  },
  {
    name: 'getSettings',
    method: 'GET',
    streamed: false,
    requests: 1,
    run: (client) => client.getSettings(),
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
    method: 'GET',
    streamed: false,
    requests: 1,
    run: (client) => client.getConversations([CONVERSATION_ID]),
    reply: (text) => [conversation(text)],
    replyWithKey: (text, _attempt, key) => [keyed(conversation(text), key)],
    intact: (result, text) => field(result, 0, 'title') === text,
  },
  {
    name: 'listSandboxConversations',
    method: 'GET',
    streamed: false,
    requests: 2,
    run: (client) => client.listSandboxConversations(SANDBOX_ID),
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
    method: 'POST',
    streamed: false,
    requests: 1,
    run: (client) => client.pauseSandbox(SANDBOX_ID),
    reply: (text) => ({ success: true, note: text }),
    replyWithKey: (text, _attempt, key) => keyed({ success: true, note: text }, key),
    intact: (result, text) => field(result, 'note') === text,
  },
  {
    name: 'deleteSandbox',
    method: 'DELETE',
    streamed: false,
    requests: 1,
    run: (client) => client.deleteSandbox(SANDBOX_ID),
    reply: (text) => ({ success: true, note: text }),
    replyWithKey: (text, _attempt, key) => keyed({ success: true, note: text }, key),
    intact: (result, text) => field(result, 'note') === text,
  },
  {
    name: 'storeProviderTokens',
    method: 'POST',
    streamed: false,
    requests: 1,
    run: (client, secrets) =>
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
    method: 'POST',
    streamed: false,
    requests: 1,
    run: (client, secrets) => client.storeSettings({ mcp_config: mcpConfig(secrets) }),
    reply: (text) => ({ message: text }),
    replyWithKey: (text, _attempt, key) => keyed({ message: text }, key),
    intact: (result, text) => field(result, 'message') === text,
  },
  {
    name: 'createConversationStreaming',
    method: 'POST',
    streamed: true,
    requests: 1,
    run: (client) =>
      client.createConversationStreaming({
        initial_message: { content: [{ type: 'text', text: 'Fix the build.' }] },
      }),
    reply: (text) => [startTask('WORKING', null), startTask('READY', text)],
    replyWithKey: (text, _attempt, key) => [startTask('WORKING', null), keyed(startTask('READY', text), key)],
    intact: (result, text) => field(result, 'status') === 'READY' && field(result, 'detail') === text,
  },
];
