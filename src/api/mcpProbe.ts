/**
 * Whether an MCP server answers as one, asked from here (plain Node, no `vscode`): what the MCP form
 * checks before it saves a new or changed SSE or streamable HTTP server, because OpenHands 1.11 fails
 * every conversation start while one it cannot reach is configured. The sandbox may see another
 * network than this machine, so the result is advice.
 *
 * - streamable HTTP: `POST` an `initialize` JSON-RPC request (`Accept: application/json,
 *   text/event-stream`); a JSON-RPC result for it, as JSON or in an event stream, is MCP. The session
 *   it opened is ended again (`DELETE` with its `Mcp-Session-Id`).
 * - SSE: `GET` with `Accept: text/event-stream`; an `endpoint` event on the URL's origin is MCP.
 *
 * The api key goes as OpenHands sends it (an `api_key` becomes the SDK's `api_key` auth without a
 * header name: `Authorization: Bearer <key>`); without one, a URL's `user:password@` goes as Basic
 * auth, as httpx sends it. Bounded: one deadline for the whole check, at most `maxBytes` read,
 * redirects followed only as the MCP SDK follows them (within the origin, the method kept, a few
 * times). No message holds the api key or a credential of the URL, or the URL itself: the caller
 * names the server.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { scrubSecrets, urlCredentials } from './redact';
import { clip, showable } from './serverText';

export type McpProbeTransport = 'sse' | 'shttp';

export interface McpProbeTarget {
  transport: McpProbeTransport;
  url: string;
  apiKey?: string | null;
}

export interface McpProbeOptions {
  /** For the whole check, redirects and reading included. */
  timeoutMs?: number;
  /** The most bytes read of any one reply's body. */
  maxBytes?: number;
  /** Same-origin redirects followed at most. */
  maxRedirects?: number;
  signal?: AbortSignal;
}

/**
 * `mcp`: it answered as an MCP server. `unreachable`: no HTTP answer (refused, unknown host, TLS,
 * deadline). `not_mcp`: an HTTP answer that is not MCP's (a status, a page, a redirect elsewhere, an
 * error for `initialize`). `skipped`: not an http(s) URL, not checked. `reason` is secret-free English.
 */
export type McpProbeResult =
  { status: 'mcp'; reason?: undefined } | { status: 'unreachable' | 'not_mcp' | 'skipped'; reason: string };

export const MCP_PROBE_DEFAULTS = { timeoutMs: 5_000, maxBytes: 64 * 1024, maxRedirects: 5 } as const;

/** The MCP revision the `initialize` asks for; servers answer with the one they speak. */
const PROTOCOL_VERSION = '2025-06-18';
const INITIALIZE_ID = 1;

/** Checks every target at once; the results are in the targets' order. */
export function probeMcpServers(
  targets: readonly McpProbeTarget[],
  options: McpProbeOptions = {},
): Promise<McpProbeResult[]> {
  return Promise.all(targets.map((target) => probeMcpServer(target, options)));
}

export async function probeMcpServer(
  target: McpProbeTarget,
  options: McpProbeOptions = {},
): Promise<McpProbeResult> {
  const settings = { ...MCP_PROBE_DEFAULTS, ...options };
  let url: URL;
  try {
    url = new URL(target.url.trim());
  } catch {
    return { status: 'skipped', reason: 'not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { status: 'skipped', reason: `only http and https URLs are checked, not ${url.protocol}` };

  const secrets = [target.apiKey ?? '', ...urlCredentials(target.url), safeDecode(url.password)];
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), settings.timeoutMs);
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const probe = new Probe(url, target, settings, controller.signal);
  try {
    const result = target.transport === 'shttp' ? await probe.streamableHttp() : await probe.sse();
    return result.status === 'mcp' ? result : { ...result, reason: scrubSecrets(result.reason, secrets) };
  } catch (error) {
    const answered = error instanceof ProbeEnd && error.answered;
    const timedOut = controller.signal.aborted && !options.signal?.aborted;
    const reason = timedOut
      ? `${answered ? 'no complete answer' : 'no answer'} within ${formatSeconds(settings.timeoutMs)}`
      : options.signal?.aborted
        ? 'the check was cancelled'
        : networkReason(error);
    return { status: answered ? 'not_mcp' : 'unreachable', reason: scrubSecrets(reason, secrets) };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    probe.close();
  }
}

/** A reply, with its body still to be read. */
interface Reply {
  url: URL;
  status: number;
  headers: http.IncomingHttpHeaders;
  body: http.IncomingMessage;
}

/** Thrown once an HTTP reply came: a deadline or reset after that is no longer "unreachable". */
class ProbeEnd extends Error {
  constructor(
    readonly answered: boolean,
    readonly original: unknown,
  ) {
    super('probe ended');
  }
}

class Probe {
  private readonly requests: http.ClientRequest[] = [];
  private answered = false;

  constructor(
    private readonly url: URL,
    private readonly target: McpProbeTarget,
    private readonly settings: Required<Omit<McpProbeOptions, 'signal'>>,
    private readonly signal: AbortSignal,
  ) {}

  async streamableHttp(): Promise<McpProbeResult> {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: INITIALIZE_ID,
      method: 'initialize',
      params: {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'openhands-vscode-check', version: '1.0.0' },
      },
    });
    const reply = await this.send('POST', body, {
      Accept: 'application/json, text/event-stream',
      'Content-Type': 'application/json',
    });
    const refused = this.refusal(reply);
    if (refused) return refused;
    const type = mediaType(reply.headers);
    let answer: unknown;
    if (type === 'application/json') {
      const text = await this.readText(reply.body);
      if (text === undefined)
        return notMcp(`its reply is larger than ${formatBytes(this.settings.maxBytes)}`);
      try {
        answer = JSON.parse(text);
      } catch {
        return notMcp('its reply is not valid JSON');
      }
      answer = Array.isArray(answer) ? answer.find(isInitializeResponse) : answer;
    } else if (type === 'text/event-stream') {
      answer = await this.readEvents(reply.body, (event) => {
        if (event.type !== 'message') return undefined;
        try {
          const data: unknown = JSON.parse(event.data);
          return isInitializeResponse(data) ? data : undefined;
        } catch {
          return undefined;
        }
      });
      if (answer === undefined)
        return notMcp(
          `its event stream sent no answer to initialize in its first ${formatBytes(this.settings.maxBytes)}`,
        );
    } else {
      return notMcp(`it answered with ${type || 'no content type'}, not JSON or an event stream`);
    }
    const verdict = initializeVerdict(answer);
    if (verdict.status === 'mcp') await this.endSession(reply);
    return verdict;
  }

  async sse(): Promise<McpProbeResult> {
    const reply = await this.send('GET', undefined, {
      Accept: 'text/event-stream',
      'Cache-Control': 'no-cache',
    });
    const refused = this.refusal(reply);
    if (refused) return refused;
    const type = mediaType(reply.headers);
    if (type !== 'text/event-stream')
      return notMcp(`it answered with ${type || 'no content type'}, not an event stream`);
    const endpoint = await this.readEvents(reply.body, (event) =>
      event.type === 'endpoint' && event.data.trim() ? event.data.trim() : undefined,
    );
    if (endpoint === undefined)
      return notMcp(
        `its event stream sent no endpoint event in its first ${formatBytes(this.settings.maxBytes)}`,
      );
    let where: URL;
    try {
      where = new URL(endpoint, reply.url);
    } catch {
      return notMcp('its endpoint event does not name a URL');
    }
    if (where.protocol !== reply.url.protocol || where.host !== reply.url.host)
      return notMcp(`its endpoint event names another server (${where.origin}), which MCP clients refuse`);
    return { status: 'mcp' };
  }

  close(): void {
    for (const request of this.requests) request.destroy();
  }

  /** A reply that is not a 2xx: why it is not MCP (a redirect here is one that was not followed). */
  private refusal(reply: Reply): McpProbeResult | undefined {
    if (reply.status >= 200 && reply.status < 300) return undefined;
    reply.body.resume();
    if (reply.status >= 300 && reply.status < 400) {
      const location = locationOf(reply);
      return notMcp(
        location
          ? `HTTP ${reply.status}: it redirects to ${shown(location)}, which is not followed`
          : `HTTP ${reply.status} without a location`,
      );
    }
    if (reply.status === 401 || reply.status === 403)
      return notMcp(
        `HTTP ${reply.status}: it refused the request${this.target.apiKey ? ' (check the API key)' : ' (does it need an API key?)'}`,
      );
    return notMcp(`HTTP ${reply.status}`);
  }

  /**
   * Sends the request and follows redirects as the MCP SDK does (`stream_within_origin`): within the
   * origin (or its https upgrade), the method kept (307/308, or any of a GET), no userinfo of its own.
   */
  private async send(method: 'GET' | 'POST', body: string | undefined, headers: Record<string, string>) {
    let url = this.url;
    for (let followed = 0; ; followed++) {
      const reply = await this.request(url, method, body, headers);
      const location = locationOf(reply);
      const keepsMethod = method === 'GET' || reply.status === 307 || reply.status === 308;
      if (
        !location ||
        !keepsMethod ||
        followed >= this.settings.maxRedirects ||
        !withinOrigin(url, location) ||
        ((location.username || location.password) &&
          location.username + location.password !== url.username + url.password)
      )
        return reply;
      reply.body.resume();
      url = location;
    }
  }

  private request(url: URL, method: string, body: string | undefined, extra: Record<string, string>) {
    return new Promise<Reply>((resolve, reject) => {
      const headers: Record<string, string> = {
        ...extra,
        'Accept-Encoding': 'identity',
        'User-Agent': 'openhands-vscode (MCP server check)',
      };
      const key = this.target.apiKey?.trim();
      if (key) headers.Authorization = `Bearer ${key}`;
      else if (url.username || url.password)
        headers.Authorization = `Basic ${Buffer.from(
          `${safeDecode(url.username)}:${safeDecode(url.password)}`,
        ).toString('base64')}`;
      if (body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(body));
      const options: http.RequestOptions = {
        method,
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        headers,
        signal: this.signal,
      };
      const request = (url.protocol === 'https:' ? https : http).request(options, (response) => {
        this.answered = true;
        resolve({ url, status: response.statusCode ?? 0, headers: response.headers, body: response });
      });
      this.requests.push(request);
      request.on('error', (error) => reject(new ProbeEnd(this.answered, error)));
      request.end(body);
    });
  }

  /** The body as text, or undefined when it is larger than the cap (reading stops there). */
  private async readText(body: http.IncomingMessage): Promise<string | undefined> {
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of body) {
        const buffer = chunk as Buffer;
        size += buffer.length;
        if (size > this.settings.maxBytes) return undefined;
        chunks.push(buffer);
      }
    } catch (error) {
      throw new ProbeEnd(true, error);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** Reads server-sent events until `pick` returns something, the cap, or the end of the stream. */
  private async readEvents<T>(
    body: http.IncomingMessage,
    pick: (event: { type: string; data: string }) => T | undefined,
  ): Promise<T | undefined> {
    const decoder = new TextDecoder('utf-8');
    let size = 0;
    let pending = '';
    let type = '';
    let data: string[] = [];
    try {
      for await (const chunk of body) {
        const buffer = chunk as Buffer;
        // only what fits under the cap is read
        const part = buffer.subarray(0, this.settings.maxBytes - size);
        size += part.length;
        pending += decoder.decode(part, { stream: true });
        const lines = pending.split(/\r\n|\r|\n/);
        pending = lines.pop() ?? '';
        for (const line of lines) {
          if (line === '') {
            if (data.length > 0) {
              const found = pick({ type: type || 'message', data: data.join('\n') });
              if (found !== undefined) return found;
            }
            type = '';
            data = [];
            continue;
          }
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') type = value;
          else if (field === 'data') data.push(value);
        }
        if (size >= this.settings.maxBytes) return undefined;
      }
    } catch (error) {
      throw new ProbeEnd(true, error);
    }
    return undefined;
  }

  /** Ends the session `initialize` opened, if the server named one; its answer does not matter. */
  private async endSession(reply: Reply): Promise<void> {
    reply.body.resume();
    const session = reply.headers['mcp-session-id'];
    if (typeof session !== 'string' || !session) return;
    try {
      const ended = await this.request(reply.url, 'DELETE', undefined, { 'Mcp-Session-Id': session });
      ended.body.resume();
    } catch {
      // best effort
    }
  }
}

function notMcp(reason: string): McpProbeResult {
  return { status: 'not_mcp', reason };
}

function isInitializeResponse(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    (value as Record<string, unknown>).id === INITIALIZE_ID &&
    ('result' in value || 'error' in value)
  );
}

function initializeVerdict(answer: unknown): McpProbeResult {
  if (!isInitializeResponse(answer) || answer.jsonrpc !== '2.0')
    return notMcp('its reply is not a JSON-RPC answer to initialize');
  const error = answer.error;
  if (error !== undefined) {
    const message =
      typeof error === 'object' &&
      error !== null &&
      typeof (error as { message?: unknown }).message === 'string'
        ? (error as { message: string }).message
        : 'no message';
    return notMcp(`it answered initialize with an error: ${showable(message, 200)}`);
  }
  const result = answer.result;
  if (
    typeof result !== 'object' ||
    result === null ||
    typeof (result as Record<string, unknown>).protocolVersion !== 'string'
  )
    return notMcp('its answer to initialize has no protocol version');
  return { status: 'mcp' };
}

function mediaType(headers: http.IncomingHttpHeaders): string {
  return (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function locationOf(reply: Reply): URL | undefined {
  if (reply.status < 300 || reply.status >= 400) return undefined;
  const location = reply.headers.location;
  if (!location) return undefined;
  try {
    return new URL(location, reply.url);
  } catch {
    return undefined;
  }
}

/** httpx's rule: the same scheme, host and port, or the https upgrade of it on the default ports. */
function withinOrigin(from: URL, to: URL): boolean {
  if (from.protocol === to.protocol && from.hostname === to.hostname && from.port === to.port) return true;
  return (
    from.hostname === to.hostname &&
    from.protocol === 'http:' &&
    from.port === '' &&
    to.protocol === 'https:' &&
    to.port === ''
  );
}

/** A URL for a message: no userinfo, query or fragment. */
function shown(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Node's errors name the host and code; the code says it in fewer words. */
function networkReason(error: unknown): string {
  const cause = error instanceof ProbeEnd ? error.original : error;
  const code =
    typeof cause === 'object' && cause !== null && typeof (cause as { code?: unknown }).code === 'string'
      ? (cause as { code: string }).code
      : '';
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
      return 'host not found';
    case 'EAI_AGAIN':
      return 'the host name could not be looked up';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'the connection was closed';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'no route to the host';
    case 'ETIMEDOUT':
      return 'the connection timed out';
    case 'HPE_INVALID_CONSTANT':
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_HEADER_OVERFLOW':
      return 'its reply is not HTTP';
    default:
      if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code))
        return `its TLS certificate is not trusted (${code})`;
      if (code) return code;
      return cause instanceof Error ? clip(cause.message, 200) : 'network error';
  }
}

function formatSeconds(ms: number): string {
  return `${Math.round((ms / 1000) * 10) / 10} s`;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
}
