import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { ApiError, OpenHandsClient, type ApiErrorKind } from '../../../src/api';
import { useTestServer } from './harness';

function expectKind(kind: ApiErrorKind, check: (error: ApiError) => void = () => {}) {
  return (error: unknown) => {
    assert.ok(error instanceof ApiError, `expected ApiError, got ${String(error)}`);
    assert.equal(error.kind, kind, error.message);
    assert.ok(error.message.length > 10, 'a human message');
    check(error);
    return true;
  };
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 1;
}

describe('OpenHandsClient: errors', () => {
  const t = useTestServer({ seed: { sandboxes: 2, conversations: 3 } });

  it('network: nothing listens at the URL', async () => {
    const client = new OpenHandsClient({
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      timeoutMs: 2000,
    });
    await assert.rejects(
      client.searchSandboxes(),
      expectKind('network', (error) =>
        assert.match(error.message, /Cannot reach the OpenHands server.*ECONNREFUSED/),
      ),
    );
  });

  it('network: the server resets the connection', async () => {
    t.server.faults.add({ kind: 'reset', match: { path: '/api/v1/sandboxes/search' } });
    await assert.rejects(t.client.searchSandboxes(), expectKind('network'));
  });

  it('timeout: the server never answers', async () => {
    t.server.faults.add({ kind: 'hang', match: { path: '/api/v1/sandboxes/search' } });
    const client = t.newClient({ timeoutMs: 150 });
    const started = Date.now();
    await assert.rejects(
      client.searchSandboxes(),
      expectKind('timeout', (error) => assert.match(error.message, /within 0\.15 s/)),
    );
    assert.ok(Date.now() - started < 1500);
  });

  it('cancelled: the caller aborts a slow request', async () => {
    t.server.faults.add({ kind: 'latency', ms: 1000, match: { path: '/api/v1/sandboxes/search' } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    await assert.rejects(
      t.client.searchSandboxes({}, { signal: controller.signal }),
      expectKind('cancelled'),
    );
  });

  it('cancelled: a signal aborted before the call sends nothing', async () => {
    const before = t.server.requests.length;
    await assert.rejects(
      t.client.searchSandboxes({}, { signal: AbortSignal.abort() }),
      expectKind('cancelled'),
    );
    assert.equal(t.server.requests.length, before);
  });

  it('unauthorized: 401 with the server reason', async () => {
    t.server.faults.add({ kind: 'status', status: 401, body: { error: 'ExpiredError' } });
    await assert.rejects(
      t.client.searchConversations(),
      expectKind('unauthorized', (error) => {
        assert.equal(error.status, 401);
        assert.equal(error.serverMessage, 'ExpiredError');
      }),
    );
  });

  it('not_found: 404 {"detail":"Not Found"}', async () => {
    await assert.rejects(
      t.client.pauseSandbox('oh-agent-server-nope'),
      expectKind('not_found', (error) => assert.equal(error.serverMessage, 'Not Found')),
    );
  });

  it('validation: a 422 carries the FastAPI detail items, without the echoed input', async () => {
    await assert.rejects(
      t.client.getStartTasks(['not-a-uuid']),
      expectKind('validation', (error) => {
        assert.equal(error.status, 422);
        assert.deepEqual(error.issues[0]?.loc, ['query', 'ids', 0]);
        assert.equal(error.issues[0]?.type, 'uuid_parsing');
        assert.ok(!('input' in (error.issues[0] ?? {})));
        assert.match(error.message, /ids\.0: Input should be a valid UUID/);
      }),
    );
  });

  it('validation: a page size outside 1–100 is refused before sending (the server would 422)', async () => {
    const before = t.server.requests.length;
    assert.throws(() => t.client.searchSandboxes({ limit: 101 }), expectKind('validation'));
    assert.throws(() => t.client.searchSandboxes({ limit: 0 }), expectKind('validation'));
    assert.equal(t.server.requests.length, before);
  });

  it('rate_limited: a GET is retried after Retry-After and then succeeds', async () => {
    t.server.faults.add({
      kind: 'rate_limit',
      retryAfterSeconds: 0.05,
      times: 1,
      match: { path: '/api/v1/sandboxes/search' },
    });
    const page = await t.client.searchSandboxes();
    assert.equal(page.items.length, 2);
    assert.deepEqual(
      t.logs.map((entry) => [entry.status, entry.attempt]),
      [
        [429, 1],
        [200, 2],
      ],
    );
  });

  it('rate_limited: a POST is never retried', async () => {
    t.server.faults.add({ kind: 'rate_limit', retryAfterSeconds: 0, times: 1, match: { method: 'POST' } });
    const sandbox = (await t.client.searchSandboxes()).items[0];
    assert.ok(sandbox);
    await assert.rejects(
      t.client.pauseSandbox(sandbox.id),
      expectKind('rate_limited', (error) => assert.equal(error.retryAfterMs, 0)),
    );
    assert.equal(t.server.requests.filter((r) => r.method === 'POST').length, 1);
  });

  it('rate_limited: a Retry-After longer than we wait for surfaces to the caller', async () => {
    t.server.faults.add({ kind: 'rate_limit', retryAfterSeconds: 60 });
    await assert.rejects(
      t.client.searchSandboxes(),
      expectKind('rate_limited', (error) => assert.equal(error.retryAfterMs, 60_000)),
    );
  });

  it('server: 500 text/plain Internal Server Error', async () => {
    t.server.faults.add({
      kind: 'status',
      status: 500,
      body: 'Internal Server Error',
      contentType: 'text/plain',
    });
    await assert.rejects(
      t.client.searchSandboxes(),
      expectKind('server', (error) => {
        assert.equal(error.status, 500);
        assert.equal(error.serverMessage, 'Internal Server Error');
      }),
    );
  });

  it('server: 500 {"detail": …} from a sandbox error', async () => {
    t.server.faults.add({
      kind: 'status',
      status: 500,
      body: { detail: 'Failed to start container: no space left' },
    });
    await assert.rejects(
      t.client.startSandbox(),
      expectKind('server', (error) => assert.match(error.message, /no space left/)),
    );
  });

  it('invalid_response: the SPA fallback answers 200 text/html', async () => {
    t.server.faults.add({ kind: 'html' });
    await assert.rejects(
      t.client.searchSandboxes(),
      expectKind('invalid_response', (error) => assert.match(error.message, /text\/html instead of JSON/)),
    );
  });

  it('invalid_response: an unknown path on the real server (trailing slash) is the HTML page too', async () => {
    const client = t.newClient({ baseUrl: `${t.server.url}/not-openhands` });
    await assert.rejects(client.searchSandboxes(), expectKind('invalid_response'));
  });

  it('invalid_response: a truncated JSON body', async () => {
    t.server.faults.add({ kind: 'malformed_json' });
    await assert.rejects(
      t.client.searchConversations(),
      expectKind('invalid_response', (error) => assert.match(error.message, /not valid JSON/)),
    );
  });

  it('invalid_response: JSON of the wrong shape names the field', async () => {
    t.server.faults.add({ kind: 'status', status: 200, body: { items: 'nope', next_page_id: null } });
    await assert.rejects(
      t.client.searchSandboxes(),
      expectKind('invalid_response', (error) => assert.match(error.message, /items/)),
    );
  });

  it('a bad server URL is refused with a clear message', () => {
    assert.throws(() => new OpenHandsClient({ baseUrl: 'ftp://x' }), /must start with http/);
    assert.throws(() => new OpenHandsClient({ baseUrl: 'localhost:3000' }), /http/);
    assert.throws(() => new OpenHandsClient({ baseUrl: '' }), /empty/);
  });
});
