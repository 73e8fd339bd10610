// Secrets the client READS must be masked like the ones it sends: a sandbox's session key (in
// `session_api_key` and in the `tkn=` of its VS Code URL) arrives in replies, and a malformed reply (cut
// short, of the wrong shape, an error page) is exactly the one whose text goes into the error and the log.
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import * as z from 'zod/mini';
import { ApiError, OpenHandsClient, type RequestLogEntry } from '../../../../src/api';
import { HttpTransport } from '../../../../src/api/http/transport';
import { useHostileServer } from './hostile/hostileServer';
import { assertNoCopy, renderings, respond } from '../secretReplies';

const API_KEY = 'key-received-secrets-0001';
const SESSION_KEY = 'sess-4f1e9c2b7a3d8e6f0a1b2c3d';
const SANDBOX_ID = 'sb-received';
const CONVERSATION_ID = '0123456789abcdef0123456789abcdef';

function sandbox(key: string) {
  return {
    id: SANDBOX_ID,
    status: 'RUNNING',
    session_api_key: key,
    exposed_urls: [
      { name: 'AGENT_SERVER', url: 'http://127.0.0.1:8000' },
      { name: 'VSCODE', url: `http://127.0.0.1:8001/?tkn=${key}&folder=/workspace/project` },
    ],
  };
}

function conversation(key: string) {
  return {
    id: CONVERSATION_ID,
    sandbox_id: SANDBOX_ID,
    title: 'Fix the build',
    sandbox_status: 'RUNNING',
    conversation_url: `http://127.0.0.1:8000/api/conversations/${CONVERSATION_ID}`,
    session_api_key: key,
  };
}

interface Operation {
  name: string;
  run(client: OpenHandsClient): Promise<unknown>;
  /** A reply of the right shape that carries the key where the real server puts it. */
  reply(key: string): unknown;
  /** The same reply, of the wrong shape (one field of the wrong type). */
  wrongShape(key: string): unknown;
}

const OPERATIONS: Operation[] = [
  {
    name: 'getSandboxes',
    run: (client) => client.getSandboxes([SANDBOX_ID]),
    reply: (key) => [sandbox(key)],
    wrongShape: (key) => [{ ...sandbox(key), status: 42 }],
  },
  {
    name: 'searchConversations',
    run: (client) => client.searchConversations(),
    reply: (key) => ({ items: [conversation(key)], next_page_id: null }),
    wrongShape: (key) => ({ items: [{ ...conversation(key), sandbox_id: 7 }], next_page_id: null }),
  },
];

interface Reply {
  name: string;
  status: number;
  contentType: string;
  body(operation: Operation, key: string): string;
}

/** Cut just after the key, or inside it: what is left of the key must not show either. */
function cut(text: string, key: string, keep: number): string {
  return text.slice(0, text.indexOf(key) + keep);
}

const MALFORMED: Reply[] = [
  {
    name: 'of the wrong shape',
    status: 200,
    contentType: 'application/json',
    body: (operation, key) => JSON.stringify(operation.wrongShape(key)),
  },
  {
    name: 'of the wrong shape, with the key echoed in its detail',
    status: 200,
    contentType: 'application/json',
    body: (_operation, key) =>
      JSON.stringify({ detail: `sandbox ${SANDBOX_ID} answers with ${key}`, session_api_key: key, items: 7 }),
  },
  {
    name: 'cut just after the key',
    status: 200,
    contentType: 'application/json',
    body: (operation, key) => cut(JSON.stringify(operation.reply(key)), key, key.length + 2),
  },
  {
    name: 'cut inside the key',
    status: 200,
    contentType: 'application/json',
    body: (operation, key) => cut(JSON.stringify(operation.reply(key)), key, key.length - 3),
  },
  {
    name: 'cut inside the VS Code URL',
    status: 200,
    contentType: 'application/json',
    body: (_operation, key) => cut(JSON.stringify([sandbox(key)]), `tkn=${key}`, key.length + 10),
  },
  {
    name: 'a 500 whose detail is the object, key and all',
    status: 500,
    contentType: 'application/json',
    body: (operation, key) => JSON.stringify({ detail: JSON.stringify(operation.reply(key)) }),
  },
  {
    name: 'a 500 of JSON cut short',
    status: 500,
    contentType: 'application/json',
    body: (operation, key) => cut(JSON.stringify(operation.reply(key)), key, key.length + 1),
  },
  {
    name: 'a 502 in plain text that quotes the JSON',
    status: 502,
    contentType: 'text/plain',
    body: (operation, key) => `upstream said: ${JSON.stringify(operation.reply(key))}`,
  },
];

/** The key, and the longest part of it a cut body could leave (all but the last 3 characters). */
function copiesOf(key: string): string[] {
  return [key, key.slice(0, -3)];
}

describe('secrets the client receives', () => {
  const hostile = useHostileServer();

  function clientFor(respondWith: (socket: Socket) => void, logBodies: boolean, logs: RequestLogEntry[]) {
    return new OpenHandsClient({
      baseUrl: hostile.callUrl((socket) => respondWith(socket)),
      apiKey: API_KEY,
      timeoutMs: 5000,
      maxRateLimitRetries: 0,
      logBodies,
      onLog: (entry) => logs.push(entry),
    });
  }

  for (const operation of OPERATIONS) {
    for (const reply of MALFORMED) {
      for (const logBodies of [false, true]) {
        it(`${operation.name}: a reply ${reply.name} does not show the session key (logBodies ${logBodies})`, async () => {
          const logs: RequestLogEntry[] = [];
          const client = clientFor(
            (socket) => respond(socket, reply.status, reply.contentType, reply.body(operation, SESSION_KEY)),
            logBodies,
            logs,
          );
          const error = await operation.run(client).then(
            () => assert.fail('a malformed reply must fail'),
            (thrown: unknown) => thrown,
          );
          assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
          assert.ok(logs.length > 0, 'the call was logged');
          assertNoCopy(renderings(error, logs), [API_KEY, ...copiesOf(SESSION_KEY)]);
        });
      }
    }

    it(`${operation.name}: a correct reply logged with its body shows no session key, even echoed in another field`, async () => {
      const logs: RequestLogEntry[] = [];
      const value = operation.reply(SESSION_KEY);
      const items = Array.isArray(value) ? value : (value as { items: Record<string, unknown>[] }).items;
      Object.assign(items[0] ?? {}, { status_detail: `started with key ${SESSION_KEY}` });
      const client = clientFor(
        (socket) => respond(socket, 200, 'application/json', JSON.stringify(value)),
        true,
        logs,
      );
      await operation.run(client);
      assertNoCopy(renderings(undefined, logs), [API_KEY, SESSION_KEY]);
    });
  }

  // A reply nested a few hundred levels is never parsed, so its text is what the log quotes; an MCP stdio
  // server's env may come as one "K=V,K2=V2" string, whose values are secrets like those of an env object.
  const ENV_TOKEN = 'envv-9f8e7d6c5b4a';
  const ENV_OTHER = 'envv-0a1b2c3d4e5f';
  const MCP_KEY = 'mcpk-1234abcd5678ef90';
  const stdioServer = `{"name":"tools","command":"npx","env":"TOKEN=${ENV_TOKEN},OTHER=${ENV_OTHER}"}`;
  const deep = `${'['.repeat(300)}${']'.repeat(300)}`;
  const tooDeep = `{"mcp_config":{"stdio_servers":[${stdioServer}],"sse_servers":[{"url":"https://mcp.example.com/sse","api_key":"${MCP_KEY}"}]},"nested":${deep}}`;
  const TOO_DEEP: (Omit<Reply, 'body'> & { body: string })[] = [
    { name: 'a 200 too deep to parse', status: 200, contentType: 'application/json', body: tooDeep },
    { name: 'a 500 too deep to parse', status: 500, contentType: 'application/json', body: tooDeep },
    {
      name: 'a 502 in plain text quoting JSON too deep to parse',
      status: 502,
      contentType: 'text/plain',
      body: `upstream said: ${tooDeep}`,
    },
    {
      name: 'a 200 cut inside the env string',
      status: 200,
      contentType: 'application/json',
      body: tooDeep.slice(0, tooDeep.indexOf(ENV_OTHER) + 8),
    },
  ];
  for (const reply of TOO_DEEP) {
    for (const logBodies of [false, true]) {
      it(`getSettings: ${reply.name} shows no env value of an MCP server's env string, nor its api_key (logBodies ${logBodies})`, async () => {
        const logs: RequestLogEntry[] = [];
        const client = clientFor(
          (socket) => respond(socket, reply.status, reply.contentType, reply.body),
          logBodies,
          logs,
        );
        const error = await client.getSettings().then(
          () => assert.fail('a reply too deep to read must fail'),
          (thrown: unknown) => thrown,
        );
        assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
        assert.ok(logs.length > 0, 'the call was logged');
        assertNoCopy(renderings(error, logs), [
          API_KEY,
          MCP_KEY,
          ENV_TOKEN,
          ENV_OTHER,
          ENV_OTHER.slice(0, 8),
        ]);
        assert.match(JSON.stringify(logs), /TOKEN=\[redacted\]/, 'env names stay readable');
      });
    }
  }

  /** A first call answered with `reply`, then a failing one whose error quotes `quoted`: the error and the log. */
  async function failureAfter(reply: string, quoted: string) {
    const logs: RequestLogEntry[] = [];
    let requests = 0;
    const client = clientFor(
      (socket) =>
        ++requests === 1
          ? respond(socket, 200, 'application/json', reply)
          : respond(socket, 500, 'application/json', JSON.stringify({ detail: quoted })),
      true,
      logs,
    );
    await client.getSandboxes([SANDBOX_ID]);
    const error = await client.searchConversations().then(
      () => assert.fail('a 500 must fail'),
      (thrown: unknown) => thrown,
    );
    assert.ok(error instanceof ApiError);
    return { error, logs };
  }

  it('a session key read in one reply is masked when a later failure quotes it', async () => {
    const { error, logs } = await failureAfter(
      JSON.stringify([sandbox(SESSION_KEY)]),
      `agent server rejected key ${SESSION_KEY}`,
    );
    assert.match(error.message, /agent server rejected key \[redacted\]/);
    assertNoCopy(renderings(error, logs), [API_KEY, SESSION_KEY]);
  });

  it('a tkn= written with JSON escapes (\\u003d, no "=" in the text) is learned, and masked when a later failure quotes it', async () => {
    // the key only in the VS Code URL, every "=" of the reply spelled as an escape
    const reply = JSON.stringify([{ ...sandbox(SESSION_KEY), session_api_key: null }]).replace(
      /=/g,
      '\\u003d',
    );
    assert.ok(!reply.includes('=') && !reply.includes('@'));
    const { error, logs } = await failureAfter(reply, `bad tkn ${SESSION_KEY}`);
    assert.match(error.message, /bad tkn \[redacted\]/);
    assertNoCopy(renderings(error, logs), [API_KEY, SESSION_KEY]);
  });

  it('a token sent in one call is masked when a later reply echoes it', async () => {
    const token = 'ghp_sentEarlier0123456789abcdef';
    const logs: RequestLogEntry[] = [];
    let requests = 0;
    const client = clientFor(
      (socket) =>
        ++requests === 1
          ? respond(socket, 200, 'application/json', JSON.stringify({ message: 'Git providers stored' }))
          : respond(socket, 500, 'application/json', JSON.stringify({ detail: `bad token ${token}` })),
      true,
      logs,
    );
    await client.storeProviderTokens({ provider_tokens: { github: { token } } });
    const error = await client.getSettings().then(
      () => assert.fail('a 500 must fail'),
      (thrown: unknown) => thrown,
    );
    assert.ok(error instanceof ApiError);
    assertNoCopy(renderings(error, logs), [API_KEY, token]);
  });

  it('HttpTransport: extraSecrets are masked in errors and logs (a key the agent-server client holds)', async () => {
    const agentKey = 'agent-session-key-9d8c7b6a5f4e';
    const logs: RequestLogEntry[] = [];
    const baseUrl = hostile.callUrl((socket) =>
      respond(
        socket,
        500,
        'application/json',
        JSON.stringify({ detail: `agent server refused ${agentKey}`, note: agentKey }),
      ),
    );
    const transport = new HttpTransport({
      baseUrl,
      timeoutMs: 5000,
      logBodies: true,
      onLog: (entry) => logs.push(entry),
      extraSecrets: () => [agentKey],
    });
    const error = await transport
      .request({ method: 'GET', path: '/api/conversations', schema: z.unknown() })
      .then(
        () => assert.fail('a 500 must fail'),
        (thrown: unknown) => thrown,
      );
    assert.ok(error instanceof ApiError);
    assert.match(error.message, /agent server refused \[redacted\]/);
    assertNoCopy(renderings(error, logs), [agentKey]);
  });
});
