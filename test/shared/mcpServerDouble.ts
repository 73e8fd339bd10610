// A tiny MCP server (node:http only) that speaks both remote transports well enough for the form's
// reachability check, plus the ways a URL can fail to be one. Used by the unit tests of the probe and
// by the form's integration and e2e tests. Routes:
//   POST /mcp        streamable HTTP: answers `initialize` as JSON (`?stream=1`: as an event stream)
//   DELETE /mcp      ends the session
//   GET  /sse        SSE: an `endpoint` event, then the stream stays open
//   GET  /page       an HTML page (not MCP)
//   GET|POST /hang   accepts and never answers
//   GET|POST /huge   an endless event stream of comments / a JSON body larger than any cap
//   GET|POST /redirect?to=<url>&status=<code>   a redirect
//   GET|POST /secret echoes the Authorization header back in a JSON-RPC error (for secret scrubbing)
// `?key=<k>` on /mcp or /sse: answers 401 unless `Authorization: Bearer <k>`.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface McpDoubleRequest {
  method: string;
  path: string;
  authorization?: string;
  accept?: string;
  body?: string;
}

export interface McpDouble {
  url: string;
  requests: McpDoubleRequest[];
  close(): Promise<void>;
}

export async function startMcpDouble(): Promise<McpDouble> {
  const requests: McpDoubleRequest[] = [];
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: request.method ?? '',
        path: url.pathname + url.search,
        authorization: request.headers.authorization,
        accept: request.headers.accept,
        body: body || undefined,
      });
      open.add(response);
      response.on('close', () => open.delete(response));
      route(request, response, url, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of open) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function route(request: http.IncomingMessage, response: http.ServerResponse, url: URL, body: string): void {
  const key = url.searchParams.get('key');
  const authorized = !key || request.headers.authorization === `Bearer ${key}`;
  switch (url.pathname) {
    case '/mcp':
      if (!authorized) return json(response, 401, { error: 'unauthorized' });
      if (request.method === 'DELETE') return void response.writeHead(200).end();
      if (request.method !== 'POST') return void response.writeHead(405).end();
      return initialize(response, body, url.searchParams.get('stream') === '1');
    case '/sse':
      if (!authorized) return json(response, 401, { error: 'unauthorized' });
      response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      response.write(': hello\n\n');
      response.write('event: endpoint\ndata: /messages/?session_id=abc123\n\n');
      return; // stays open, as a real SSE server's stream does
    case '/page':
      response.writeHead(200, { 'Content-Type': 'text/html' });
      return void response.end('<!doctype html><title>Not MCP</title><p>Hello</p>');
    case '/hang':
      return; // never answers
    case '/huge':
      if (request.method === 'POST') {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        return void streamForever(response, '{"padding":"' + 'x'.repeat(4096));
      }
      response.writeHead(200, { 'Content-Type': 'text/event-stream' });
      return void streamForever(response, `: ${'x'.repeat(4096)}\n\n`);
    case '/redirect': {
      const status = Number(url.searchParams.get('status') ?? '307');
      response.writeHead(status, { Location: url.searchParams.get('to') ?? '/' });
      return void response.end();
    }
    case '/secret':
      return json(response, 200, {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32600, message: `refused ${request.headers.authorization ?? ''}` },
      });
    default:
      return json(response, 404, { detail: 'Not Found' });
  }
}

function initialize(response: http.ServerResponse, body: string, asStream: boolean): void {
  let id: unknown = null;
  try {
    const parsed = JSON.parse(body) as { id?: unknown; method?: unknown };
    if (parsed.method !== 'initialize') return json(response, 400, { error: 'expected initialize' });
    id = parsed.id;
  } catch {
    return json(response, 400, { error: 'not JSON' });
  }
  const answer = {
    jsonrpc: '2.0',
    id,
    result: {
      protocolVersion: '2025-06-18',
      capabilities: { tools: {} },
      serverInfo: { name: 'mcp-double', version: '1.0.0' },
    },
  };
  const headers = { 'Mcp-Session-Id': 'session-1' };
  if (!asStream) return json(response, 200, answer, headers);
  response.writeHead(200, { ...headers, 'Content-Type': 'text/event-stream' });
  response.write(`event: message\ndata: ${JSON.stringify(answer)}\n\n`);
  response.end();
}

function json(
  response: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { ...headers, 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** Writes the chunk again and again until the client goes away. */
function streamForever(response: http.ServerResponse, chunk: string): void {
  const write = () => {
    while (!response.destroyed && response.write(chunk));
    if (!response.destroyed) response.once('drain', write);
  };
  write();
}
