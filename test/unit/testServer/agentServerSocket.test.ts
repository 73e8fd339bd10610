import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { WebSocket, type ClientOptions } from 'ws';
import type { SandboxRecord, TestServer } from '../../server';
import type { AgentEvent } from '../../server/agentServer/events';
import { dashedUuid } from '../../server/ids';
import { postJson, startFastServer } from './helpers';
import { eventuallyDefined } from '../../shared/eventually';

const AUTH_TIMEOUT_MS = 150;

interface Probe {
  ws: WebSocket;
  frames: AgentEvent[];
  /** 'open', or the HTTP status of a refused handshake (0 when the connection failed). */
  handshake: Promise<'open' | number>;
  closed: Promise<{ code: number; reason: string }>;
}

function probe(url: string, options: ClientOptions = {}): Probe {
  const ws = new WebSocket(url, options);
  const frames: AgentEvent[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(String(data)) as AgentEvent));
  ws.on('error', () => undefined);
  const handshake = new Promise<'open' | number>((resolve) => {
    ws.once('open', () => resolve('open'));
    ws.once('unexpected-response', (request, response) => {
      resolve(response.statusCode ?? 0);
      request.destroy();
    });
    ws.once('error', () => resolve(0));
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  return { ws, frames, handshake, closed };
}

const frameCount = (target: Probe, count: number): Promise<true> =>
  eventuallyDefined(async () => (target.frames.length >= count ? true : undefined));

describe('test server: agent-server double (WebSocket)', function () {
  this.timeout(10_000);
  let server: TestServer;
  let sandbox: SandboxRecord;
  let hex: string;
  const open: WebSocket[] = [];

  before(async () => {
    server = await startFastServer({
      seed: { sandboxes: 3, conversations: 10, seed: 5 },
      timings: { agentStepMs: 0, wsAuthTimeoutMs: AUTH_TIMEOUT_MS },
    });
  });
  after(() => server.close());
  beforeEach(() => {
    server.reset();
    const running = server.state.sandboxes.find((candidate) => candidate.status === 'RUNNING');
    assert.ok(running);
    sandbox = running;
    const conversation = server.state.conversations.find((candidate) => candidate.sandbox_id === sandbox.id);
    assert.ok(conversation);
    hex = conversation.id;
  });
  afterEach(() => {
    for (const ws of open.splice(0)) ws.terminate();
  });

  const socketUrl = (query = '', id = hex): string =>
    `${server.url.replace(/^http/, 'ws')}/__sandboxes/${sandbox.id}/agent-server/sockets/events/${id}${query}`;
  const connect = (query = '', options: ClientOptions = {}, id = hex): Probe => {
    const result = probe(socketUrl(query, id), options);
    open.push(result.ws);
    return result;
  };
  const authFrame = (key = sandbox.session_api_key): string =>
    JSON.stringify({ type: 'auth', session_api_key: key });
  /** Connects with first-message auth and waits for the full_state. */
  const authenticated = async (query = ''): Promise<Probe> => {
    const client = connect(query);
    assert.equal(await client.handshake, 'open');
    client.ws.send(authFrame());
    await frameCount(client, 1);
    return client;
  };

  it('authenticates with the first frame, sends one full_state, and replays nothing without a mode', async () => {
    const client = await authenticated();
    const [fullState] = client.frames;
    assert.equal(fullState?.kind, 'ConversationStateUpdateEvent');
    assert.equal(fullState?.['key'], 'full_state');
    const value = fullState?.['value'] as Record<string, unknown>;
    assert.equal(value['id'], dashedUuid(hex));
    assert.equal(
      value['execution_status'],
      server.state.conversations.find((c) => c.id === hex)?.execution_status,
    );
    assert.ok(value['agent'] && value['confirmation_policy'] && value['workspace'] && value['stats']);
    assert.ok(
      !server.agent.events(hex).some((event) => event.id === fullState?.id),
      'full_state is never stored',
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(client.frames.length, 1);

    // A later auth frame is ignored; a Message frame is sent with run=true.
    client.ws.send(authFrame());
    client.ws.send(JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'From the socket' }] }));
    await eventuallyDefined(async () =>
      client.frames.some((frame) => frame['key'] === 'full_state' && frame !== fullState) ? true : undefined,
    );
    const live = client.frames.slice(1).map((frame) => frame.kind);
    assert.ok(!live.includes('ServerErrorEvent'));
    assert.ok(
      live.includes('MessageEvent') && live.includes('ActionEvent') && live.includes('StreamingDeltaEvent'),
    );
  });

  it('closes 4001 for a wrong key, a first frame that is not auth, or no frame within the timeout', async () => {
    const wrongKey = connect();
    await wrongKey.handshake;
    wrongKey.ws.send(authFrame('nope'));
    assert.deepEqual(await wrongKey.closed, { code: 4001, reason: 'Authentication failed' });

    const notAuth = connect();
    await notAuth.handshake;
    notAuth.ws.send(JSON.stringify({ role: 'user', content: [] }));
    assert.equal((await notAuth.closed).code, 4001);

    const badJson = connect();
    await badJson.handshake;
    badJson.ws.send('{');
    assert.equal((await badJson.closed).code, 4001);

    const silent = connect();
    await silent.handshake;
    const openedAt = Date.now();
    assert.deepEqual(await silent.closed, { code: 4001, reason: 'Authentication failed' });
    assert.ok(Date.now() - openedAt >= AUTH_TIMEOUT_MS - 20);
    assert.equal(silent.frames.length, 0);
  });

  it('refuses a wrong query/header key at the handshake (403); a right one (query wins) connects', async () => {
    assert.equal(await connect('?session_api_key=nope').handshake, 403);
    assert.equal(await connect('', { headers: { 'X-Session-API-Key': 'nope' } }).handshake, 403);
    assert.equal(
      await connect(`?session_api_key=nope`, { headers: { 'X-Session-API-Key': sandbox.session_api_key } })
        .handshake,
      403,
    );
    const byQuery = connect(`?session_api_key=${sandbox.session_api_key}`);
    assert.equal(await byQuery.handshake, 'open');
    await frameCount(byQuery, 1);
    const byHeader = connect('', { headers: { 'X-Session-API-Key': sandbox.session_api_key } });
    await frameCount(byHeader, 1);
    assert.equal(byHeader.frames[0]?.['key'], 'full_state');
  });

  it('closes 4004 for an unknown conversation and refuses (503) while the sandbox is not running', async () => {
    const unknown = connect(`?session_api_key=${sandbox.session_api_key}`, {}, randomUUID());
    assert.equal(await unknown.handshake, 'open');
    assert.deepEqual(await unknown.closed, { code: 4004, reason: 'Conversation not found' });
    sandbox.status = 'PAUSED';
    assert.equal(await connect().handshake, 503);
  });

  it('replays with resend_mode=all, since (inclusive) and the deprecated resend_all', async () => {
    const stored = server.agent.events(hex);
    const all = await authenticated('?resend_mode=all');
    await frameCount(all, stored.length + 1);
    assert.deepEqual(
      all.frames.slice(1).map((frame) => frame.id),
      stored.map((event) => event.id),
    );

    const boundary = stored[5]?.timestamp ?? '';
    const expected = stored.filter((event) => event.timestamp >= boundary).map((event) => event.id);
    const since = await authenticated(`?resend_mode=since&after_timestamp=${encodeURIComponent(boundary)}`);
    await frameCount(since, expected.length + 1);
    assert.deepEqual(
      since.frames.slice(1).map((frame) => frame.id),
      expected,
    );
    assert.ok(expected.includes(stored[5]?.id ?? ''), 'the boundary event is included');

    const deprecated = await authenticated('?resend_all=true');
    await frameCount(deprecated, stored.length + 1);
    const noTimestamp = await authenticated('?resend_mode=since');
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(noTimestamp.frames.length, 1, 'since without after_timestamp replays nothing');
    assert.equal(await connect('?resend_mode=later').handshake, 403);
  });

  it('lets live events interleave with (and duplicate) a replay; every stored event still arrives', async () => {
    server.agent.seedEvents(hex, 3000);
    const client = connect(`?session_api_key=${sandbox.session_api_key}&resend_mode=all`);
    const liveIds: string[] = [];
    client.ws.once('upgrade', () => {
      // Appends start as soon as the socket is accepted, while the replay is still paging.
      let remaining = 40;
      const tick = (): void => {
        liveIds.push(
          ...server.agent.append(hex, [{ kind: 'PauseEvent', source: 'user' }]).map((event) => event.id),
        );
        if (--remaining > 0) setImmediate(tick);
      };
      setImmediate(tick);
    });
    await eventuallyDefined(
      async () => (liveIds.length === 40 && client.frames.length >= 3001 + 40 ? true : undefined),
      5000,
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    const received = client.frames.slice(1).map((frame) => frame.id);
    const storedIds = server.agent.events(hex).map((event) => event.id);
    assert.ok(
      storedIds.every((id) => received.includes(id)),
      'nothing is lost',
    );
    assert.ok(received.length > storedIds.length, 'live events and the replay overlap: duplicates');
    const firstLive = received.indexOf(liveIds[0] ?? '');
    const lastSeeded = received.indexOf(storedIds[2999] ?? '');
    assert.ok(firstLive < lastSeeded, 'a live event arrived before the replay ended');
  });

  it('answers an invalid frame with a ServerErrorEvent and keeps the socket open', async () => {
    const client = await authenticated();
    client.ws.send('not json');
    client.ws.send(JSON.stringify({ role: 'robot', content: [] }));
    client.ws.send(JSON.stringify({ role: 'assistant', content: [] }));
    await frameCount(client, 4);
    assert.deepEqual(
      client.frames.slice(1).map((frame) => [frame.kind, frame['code'], frame.source]),
      [
        ['ServerErrorEvent', 'JSONDecodeError', 'environment'],
        ['ServerErrorEvent', 'ValidationError', 'environment'],
        ['ServerErrorEvent', 'AssertionError', 'environment'],
      ],
    );
    assert.equal(client.ws.readyState, WebSocket.OPEN);
  });

  it('legacy mode: no first-message auth (403 without a query key), resend_mode ignored', async () => {
    server.agent.setOptions({ legacy: true });
    assert.equal(await connect().handshake, 403);
    assert.equal(
      await connect('', { headers: { 'X-Session-API-Key': sandbox.session_api_key } }).handshake,
      403,
    );
    const ignored = connect(`?session_api_key=${sandbox.session_api_key}&resend_mode=all`);
    await frameCount(ignored, 1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(ignored.frames.length, 1);
    const replayed = connect(`?session_api_key=${sandbox.session_api_key}&resend_all=true`);
    await frameCount(replayed, server.agent.events(hex).length + 1);
  });

  it('counts open sockets, drops them without a close frame and refuses new ones for a while', async () => {
    const first = await authenticated();
    const second = connect(`?session_api_key=${sandbox.session_api_key}`);
    await frameCount(second, 1);
    assert.equal(server.agent.socketCount(hex), 2);
    assert.deepEqual(server.agent.socketCounts(), { [hex]: 2 });

    second.ws.close();
    await second.closed;
    await eventuallyDefined(async () => (server.agent.socketCount(hex) === 1 ? true : undefined));

    assert.equal(server.agent.drop(dashedUuid(hex), { refuseMs: 150 }), 1);
    assert.equal((await first.closed).code, 1006);
    assert.equal(server.agent.socketCount(hex), 0);
    assert.equal(await connect().handshake, 0, 'refused at the network level');
    await new Promise((resolve) => setTimeout(resolve, 160));
    assert.equal(await connect().handshake, 'open');
  });

  it('silences sockets without closing them (a half-open connection): no frame, no pong; new ones work', async () => {
    const cut = await authenticated();
    let pongs = 0;
    cut.ws.on('pong', () => pongs++);
    const reply = await postJson<{ silenced: number }>(
      `${server.url}/__control/agent/conversations/${dashedUuid(hex)}/silence`,
      {},
    );
    assert.deepEqual(reply.body, { silenced: 1 });
    assert.equal(server.agent.socketCount(hex), 0, 'no longer counted');
    cut.ws.ping();
    // a socket opened after the silence gets the next event; the silenced one gets neither it nor a pong
    const fresh = await authenticated();
    server.agent.append(hex, [{ kind: 'PauseEvent', source: 'user' }]);
    await frameCount(fresh, 2);
    assert.equal(cut.frames.length, 1);
    assert.equal(pongs, 0);
    assert.equal(cut.ws.readyState, WebSocket.OPEN, 'never closed');
  });

  it('pings every interval and closes 1011 when no pong comes back', async () => {
    server.agent.setOptions({ wsPingMs: 60 });
    const mute = connect(`?session_api_key=${sandbox.session_api_key}`, { autoPong: false });
    let pings = 0;
    mute.ws.on('ping', () => pings++);
    const polite = connect(`?session_api_key=${sandbox.session_api_key}`);
    assert.deepEqual(await mute.closed, { code: 1011, reason: 'keepalive ping timeout' });
    assert.equal(pings, 1);
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(polite.ws.readyState, WebSocket.OPEN, 'a client that answers pings stays');
  });

  it('closes 1013 beyond 50 subscribers of one conversation', async () => {
    const clients = Array.from({ length: 50 }, () => connect(`?session_api_key=${sandbox.session_api_key}`));
    await Promise.all(clients.map((client) => frameCount(client, 1)));
    const extra = connect(`?session_api_key=${sandbox.session_api_key}`);
    assert.deepEqual(await extra.closed, {
      code: 1013,
      reason: 'Too many connections for this conversation',
    });
  });

  it('serves the socket on an HTTPS server too', async () => {
    const { selfSignedCertificate } = await import('../../server');
    const certificate = selfSignedCertificate();
    const tls = await startFastServer({
      seed: { sandboxes: 1, conversations: 2, seed: 5 },
      tls: certificate,
    });
    try {
      const tlsSandbox = tls.state.sandboxes[0];
      const conversation = tls.state.conversations.find(
        (candidate) => candidate.sandbox_id === tlsSandbox?.id,
      );
      assert.ok(tlsSandbox && conversation);
      const client = probe(
        `${tls.url.replace(/^https/, 'wss')}/__sandboxes/${tlsSandbox.id}/agent-server/sockets/events/${conversation.id}?resend_mode=all`,
        { ca: certificate.cert },
      );
      open.push(client.ws);
      assert.equal(await client.handshake, 'open');
      client.ws.send(JSON.stringify({ type: 'auth', session_api_key: tlsSandbox.session_api_key }));
      await frameCount(client, tls.agent.events(conversation.id).length + 1);
    } finally {
      await tls.close();
    }
  });
});
