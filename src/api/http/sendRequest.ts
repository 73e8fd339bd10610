/**
 * The second step of a request: sending it, and holding its reply under its deadline. This is what
 * speaks HTTP: one axios instance on the server's keep-alive pool, with the server's TLS options on
 * every request, no redirects followed and no proxy of axios's own. A failure below HTTP (nothing came
 * back, the deadline passed, the caller cancelled) becomes its `ApiError` here.
 */
import axios, { type AxiosInstance, type AxiosRequestConfig, type AxiosResponse } from 'axios';
import { ClientRequest } from 'node:http';
import type { Readable } from 'node:stream';
import { ConnectionPool } from '../connectionPool';
import { ApiError } from '../errors';
import { untilAborted, withDeadline, type Deadline } from '../signals';
import { tlsRequestTransport, type TlsOptions } from '../tls';
import type { Call } from './buildRequest';

/** What a reply says before its body. */
export interface ReplyHead {
  status: number;
  contentType: string;
  headers: AxiosResponse['headers'];
}

/** A reply read whole, as text. */
export interface TextReply extends ReplyHead {
  text: string;
}

/** A reply whose body is left to read as it streams. */
export interface OpenReply extends ReplyHead {
  body: Readable;
}

export interface SenderOptions {
  tls?: TlsOptions;
  /** When unset: one pool of the sender's own with `tls`, else the one every such sender shares. */
  pool?: ConnectionPool;
  /** From sending a request to the last byte of its reply (for a stream: to its first byte). */
  timeoutMs: number;
  /** Replies larger than this are refused rather than held in memory. */
  maxResponseBytes: number;
}

export class Sender {
  private readonly http: AxiosInstance;
  private readonly timeoutMs: number;

  constructor(options: SenderOptions) {
    this.timeoutMs = options.timeoutMs;
    const pool = options.pool ?? (options.tls ? new ConnectionPool(options.tls) : sharedPool());
    this.http = axios.create({
      // We read bodies as text and parse them ourselves: the server's SPA fallback answers 200 text/html,
      // and a truncated body must become an ApiError, not an exception from inside axios.
      responseType: 'text',
      transformResponse: [(data: unknown) => data],
      validateStatus: () => true,
      // Never follow: the key would travel to whatever host a 30x names, and a POST would become a GET.
      maxRedirects: 0,
      // Node's http and https only (the build leaves axios's fetch adapter out), and no proxy of axios's
      // own from the environment: inside VS Code its proxy support (the `http.proxy*` settings and the
      // environment) already decides for every request, and a second, axios-made tunnel would not know it.
      adapter: 'http',
      proxy: false,
      // the TLS options on each request too: VS Code's proxy support drops the agent for a remote host
      ...(options.tls ? { transport: tlsRequestTransport(options.tls) } : {}),
      maxContentLength: options.maxResponseBytes,
      // explicit agents: VS Code's proxy support swaps the default one for an agent that keeps no socket
      httpAgent: pool.http,
      httpsAgent: pool.https,
      // VS Code's proxy support wraps every request's agent in one without keepAlive (so Node sends
      // `Connection: close`) and hands the socket to ours underneath: asking for keep-alive in the
      // header lets ours keep it (measured in VS Code: one new connection per request without it)
      headers: { Connection: 'keep-alive' },
    });
  }

  /** The whole reply as text, under the request deadline. */
  async sendForText(call: Call<unknown>): Promise<TextReply> {
    const deadline = withDeadline(call.spec.signal, call.spec.timeoutMs ?? this.timeoutMs);
    try {
      // raced with the abort: a call settles when its caller or deadline ends it, whatever axios does
      const response = await untilAborted(
        this.http.request<string>({ ...call.request(), signal: deadline.signal }),
        deadline.signal,
      );
      return { ...headOf(response), text: typeof response.data === 'string' ? response.data : '' };
    } catch (cause) {
      throw this.failure(call, cause, deadline);
    } finally {
      deadline.dispose();
    }
  }

  /**
   * A reply read as a stream by `read`, under one deadline from sending to its last byte, its body as
   * sent (axios unzips leniently: a compressed body cut short would read as a shorter file).
   * @param unlimited past the size limit: `read` bounds it
   */
  async sendStreamed<R>(
    call: Call<unknown>,
    { timeoutMs, unlimited }: { timeoutMs: number; unlimited: boolean },
    read: (reply: OpenReply, signal: AbortSignal) => Promise<R>,
  ): Promise<R> {
    const deadline = withDeadline(call.spec.signal, timeoutMs);
    let response: AxiosResponse<Readable> | undefined;
    const stop = () => {
      if (response) closeReply(response);
    };
    deadline.signal.addEventListener('abort', stop, { once: true });
    try {
      response = await this.head(call, deadline.signal, {
        decompress: false,
        ...(unlimited ? { maxContentLength: -1 } : {}),
      });
      return await untilAborted(
        read({ ...headOf(response), body: response.data }, deadline.signal),
        deadline.signal,
      );
    } catch (thrown) {
      throw thrown instanceof ApiError ? thrown : this.failure(call, thrown, deadline);
    } finally {
      deadline.signal.removeEventListener('abort', stop);
      deadline.dispose();
      if (response && !response.data.readableEnded) closeReply(response);
    }
  }

  /**
   * A reply whose head must come within the request deadline, and whose body `read` may then take up
   * to `bodyDeadlineMs(head)` from the call's start (a stream may work in silence that long).
   */
  async sendStream<R>(
    call: Call<unknown>,
    bodyDeadlineMs: (head: ReplyHead) => number,
    read: (reply: OpenReply, signal: AbortSignal) => Promise<R>,
  ): Promise<R> {
    const head = withDeadline(call.spec.signal, this.timeoutMs);
    let response: AxiosResponse<Readable>;
    try {
      response = await this.head(call, head.signal);
    } catch (cause) {
      throw this.failure(call, cause, head);
    } finally {
      head.dispose();
    }
    const reply = { ...headOf(response), body: response.data };
    const wholeMs = bodyDeadlineMs(reply);
    const whole = withDeadline(call.spec.signal, Math.max(1, wholeMs - (Date.now() - call.started)));
    const opened = response;
    const stop = () => closeReply(opened);
    whole.signal.addEventListener('abort', stop, { once: true });
    try {
      // raced with the abort: a read waiting on a stalled server may never end by itself
      return await untilAborted(read(reply, whole.signal), whole.signal);
    } catch (thrown) {
      if (call.spec.signal?.aborted) throw call.failures.cancelled();
      if (whole.timedOut()) throw call.failures.timeout(wholeMs);
      if (thrown instanceof ApiError) throw thrown;
      throw call.failures.transport(thrown, true);
    } finally {
      whole.signal.removeEventListener('abort', stop);
      whole.dispose();
      // a reply left unread (an error, a bad element) must not keep its connection
      if (!response.data.readableEnded) closeReply(response);
    }
  }

  /** A reply's head, its body left to read as it streams; a head that arrives after the abort is closed unread. */
  private head(
    call: Call<unknown>,
    signal: AbortSignal,
    config: AxiosRequestConfig = {},
  ): Promise<AxiosResponse<Readable>> {
    return untilAborted(
      this.http.request<Readable>({
        ...call.request(),
        signal,
        responseType: 'stream',
        transformResponse: undefined,
        ...config,
      }),
      signal,
      closeReply,
    );
  }

  private failure(call: Call<unknown>, cause: unknown, deadline: Deadline): ApiError {
    if (call.spec.signal?.aborted) return call.failures.cancelled();
    if (deadline.timedOut()) return call.failures.timeout(this.timeoutMs, cause);
    return call.failures.transport(cause);
  }
}

let defaultPool: ConnectionPool | undefined;

/** For clients made without a pool or TLS options (tests, a server's connection test), as Node's global agent. */
function sharedPool(): ConnectionPool {
  return (defaultPool ??= new ConnectionPool());
}

/**
 * Ends a streamed reply for good. Destroying its stream alone does not do it: axios reads the socket
 * through a size-limit generator that only ends at the socket's next chunk, which a stalled server
 * never sends. Destroying the request closes the socket, and with it everything reading from it.
 */
function closeReply(response: AxiosResponse<Readable>): void {
  const request: unknown = response.request;
  if (request instanceof ClientRequest && !request.destroyed) request.destroy();
  if (!response.data.destroyed) response.data.destroy();
}

function headOf(response: AxiosResponse): ReplyHead {
  const value: unknown = response.headers['content-type'];
  return {
    status: response.status,
    contentType: typeof value === 'string' ? value : '',
    headers: response.headers,
  };
}
