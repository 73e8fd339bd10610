// The MCP reachability check against real local HTTP servers: an MCP-speaking double for both
// transports, a closed port, a server that is not MCP, one that hangs, one that never stops talking,
// and redirects within and out of the origin.
import * as assert from 'node:assert/strict';
import { probeMcpServer, probeMcpServers } from '../../../src/api/mcpProbe';
import { startMcpDouble, type McpDouble } from '../../shared/mcpServerDouble';
import { closedHostPort } from '../../shared/closedPort';

describe('probeMcpServer (the MCP form’s reachability check)', () => {
  let mcp: McpDouble;
  let other: McpDouble;

  before(async () => {
    mcp = await startMcpDouble();
    other = await startMcpDouble();
  });
  beforeEach(() => {
    mcp.requests.length = 0;
    other.requests.length = 0;
  });
  after(async () => {
    await mcp.close();
    await other.close();
  });

  describe('streamable HTTP', () => {
    it('an initialize answered as JSON is MCP; the session it opened is ended', async () => {
      const result = await probeMcpServer({ transport: 'shttp', url: `${mcp.url}/mcp` });
      assert.deepEqual(result, { status: 'mcp' });
      const [post, end] = mcp.requests;
      assert.equal(post?.method, 'POST');
      assert.equal(post?.accept, 'application/json, text/event-stream');
      assert.equal((JSON.parse(post?.body ?? '{}') as { method?: string }).method, 'initialize');
      assert.equal(end?.method, 'DELETE', 'the session is ended');
    });

    it('an initialize answered in an event stream is MCP', async () => {
      assert.deepEqual(await probeMcpServer({ transport: 'shttp', url: `${mcp.url}/mcp?stream=1` }), {
        status: 'mcp',
      });
    });

    it('the api key goes as a bearer token, as OpenHands sends it; a server that refuses says so', async () => {
      const key = 'shttp-probe-key-0001';
      const ok = await probeMcpServer({ transport: 'shttp', url: `${mcp.url}/mcp?key=${key}`, apiKey: key });
      assert.deepEqual(ok, { status: 'mcp' });
      assert.equal(mcp.requests[0]?.authorization, `Bearer ${key}`);
      const refused = await probeMcpServer({ transport: 'shttp', url: `${mcp.url}/mcp?key=${key}` });
      assert.equal(refused.status, 'not_mcp');
      assert.match(refused.reason ?? '', /HTTP 401.*API key/);
    });

    it('a page is not MCP, and neither is a 404', async () => {
      const page = await probeMcpServer({ transport: 'shttp', url: `${mcp.url}/page` });
      assert.equal(page.status, 'not_mcp');
      const missing = await probeMcpServer({ transport: 'shttp', url: `${mcp.url}/nothing` });
      assert.deepEqual(missing, { status: 'not_mcp', reason: 'HTTP 404' });
    });

    it('a JSON body larger than the cap is not read past it', async () => {
      const started = Date.now();
      const result = await probeMcpServer(
        { transport: 'shttp', url: `${mcp.url}/huge` },
        { maxBytes: 16 * 1024, timeoutMs: 10_000 },
      );
      assert.deepEqual(result, { status: 'not_mcp', reason: 'its reply is larger than 16 KB' });
      assert.ok(Date.now() - started < 5_000, 'it stops at the cap, not the deadline');
    });
  });

  describe('SSE', () => {
    it('an endpoint event is MCP; the api key goes as a bearer token', async () => {
      const key = 'sse-probe-key-0002';
      const result = await probeMcpServer({
        transport: 'sse',
        url: `${mcp.url}/sse?key=${key}`,
        apiKey: key,
      });
      assert.deepEqual(result, { status: 'mcp' });
      assert.equal(mcp.requests[0]?.accept, 'text/event-stream');
      assert.equal(mcp.requests[0]?.authorization, `Bearer ${key}`);
    });

    it('a page is not an event stream', async () => {
      const result = await probeMcpServer({ transport: 'sse', url: `${mcp.url}/page` });
      assert.deepEqual(result, {
        status: 'not_mcp',
        reason: 'it answered with text/html, not an event stream',
      });
    });

    it('an endless stream without an endpoint event stops at the cap', async () => {
      const result = await probeMcpServer(
        { transport: 'sse', url: `${mcp.url}/huge` },
        { maxBytes: 32 * 1024, timeoutMs: 10_000 },
      );
      assert.deepEqual(result, {
        status: 'not_mcp',
        reason: 'its event stream sent no endpoint event in its first 32 KB',
      });
    });
  });

  describe('unreachable, hanging', () => {
    it('a closed port is unreachable: connection refused', async () => {
      const url = `http://${await closedHostPort()}`;
      assert.deepEqual(await probeMcpServer({ transport: 'shttp', url: `${url}/mcp` }), {
        status: 'unreachable',
        reason: 'connection refused',
      });
      assert.deepEqual(await probeMcpServer({ transport: 'sse', url: `${url}/sse` }), {
        status: 'unreachable',
        reason: 'connection refused',
      });
    });

    it('a server that never answers is given up on at the deadline', async () => {
      const started = Date.now();
      const result = await probeMcpServer({ transport: 'shttp', url: `${mcp.url}/hang` }, { timeoutMs: 700 });
      const elapsed = Date.now() - started;
      assert.deepEqual(result, { status: 'unreachable', reason: 'no answer within 0.7 s' });
      assert.ok(elapsed >= 600 && elapsed < 3_000, `${elapsed} ms`);
    });

    it('checks run in parallel, each under its own deadline', async () => {
      const started = Date.now();
      const results = await probeMcpServers(
        [
          { transport: 'sse', url: `${mcp.url}/hang` },
          { transport: 'shttp', url: `${mcp.url}/hang` },
          { transport: 'shttp', url: `${mcp.url}/mcp` },
        ],
        { timeoutMs: 1_000 },
      );
      assert.deepEqual(
        results.map((r) => r.status),
        ['unreachable', 'unreachable', 'mcp'],
      );
      assert.ok(Date.now() - started < 2_500, 'not one after the other');
    });

    it('ws and wss URLs are not checked', async () => {
      const result = await probeMcpServer({ transport: 'sse', url: 'wss://mcp.example.com/sse' });
      assert.equal(result.status, 'skipped');
    });
  });

  describe('redirects', () => {
    it('a 307 within the origin is followed, method and key kept', async () => {
      const key = 'redirect-probe-key-0003';
      const to = encodeURIComponent(`/mcp?key=${key}`);
      const result = await probeMcpServer({
        transport: 'shttp',
        url: `${mcp.url}/redirect?status=307&to=${to}`,
        apiKey: key,
      });
      assert.deepEqual(result, { status: 'mcp' });
      assert.deepEqual(
        mcp.requests.map((r) => r.method),
        ['POST', 'POST', 'DELETE'],
      );
    });

    it('a redirect to another host is not followed, and the key never goes there', async () => {
      const to = encodeURIComponent(`${other.url}/mcp?token=query-secret-0004`);
      const result = await probeMcpServer({
        transport: 'shttp',
        url: `${mcp.url}/redirect?status=307&to=${to}`,
        apiKey: 'redirect-probe-key-0005',
      });
      assert.deepEqual(result, {
        status: 'not_mcp',
        reason: `HTTP 307: it redirects to ${other.url}/mcp, which is not followed`,
      });
      assert.equal(other.requests.length, 0, 'nothing was sent to the other host');
    });

    it('a 302 of a POST is not followed (it would turn into a GET)', async () => {
      const result = await probeMcpServer({
        transport: 'shttp',
        url: `${mcp.url}/redirect?status=302&to=%2Fmcp`,
      });
      assert.equal(result.status, 'not_mcp');
      assert.match(result.reason ?? '', /^HTTP 302: it redirects to .*\/mcp, which is not followed$/);
    });
  });

  describe('secrets', () => {
    it('no reason holds the api key or a credential of the URL', async () => {
      const apiKey = 'echoed-probe-key-0006';
      const result = await probeMcpServer({
        transport: 'shttp',
        url: `${mcp.url}/secret?api_key=query-secret-0007`,
        apiKey,
      });
      assert.equal(result.status, 'not_mcp');
      assert.match(result.reason ?? '', /error: refused Bearer \[redacted\]/);
      assert.ok(!JSON.stringify(result).includes(apiKey));
    });

    it('credentials in the URL go as Basic auth when there is no api key, and never into a reason', async () => {
      const url = `http://${await closedHostPort()}`;
      const result = await probeMcpServer({
        transport: 'sse',
        url: `${url.replace('//', '//me:url-password-0008@')}/sse`,
      });
      assert.equal(result.status, 'unreachable');
      assert.ok(!JSON.stringify(result).includes('url-password-0008'));
      await probeMcpServer({
        transport: 'sse',
        url: `${mcp.url.replace('//', '//me:url-password-0008@')}/sse`,
      });
      assert.equal(
        mcp.requests[0]?.authorization,
        `Basic ${Buffer.from('me:url-password-0008').toString('base64')}`,
      );
    });
  });
});
