// Reply values returned by route handlers and the one place that writes them to the socket,
// with the content types Starlette uses (compact JSON, `text/plain; charset=utf-8`).
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { ValidationIssue } from './validation';

export interface StreamSink {
  writeRaw(text: string): void;
  /** Serialises through the same transform as JSON replies (used by the drift fault). */
  writeJson(value: unknown): void;
  end(): void;
  readonly closed: boolean;
  onClose(listener: () => void): void;
}

export type Reply =
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'text'; status: number; contentType: string; body: string; headers?: Record<string, string> }
  /** A file's bytes (FileResponse); `headers` beside the content type and length. */
  | { kind: 'bytes'; status: number; contentType: string; body: Buffer; headers: Record<string, string> }
  /** Starlette's StreamingResponse of bytes: chunked, no content length. */
  | { kind: 'chunked'; status: number; contentType: string; body: Buffer; headers: Record<string, string> }
  | { kind: 'stream'; status: number; contentType: string; run(sink: StreamSink): void }
  /** Destroy the socket without answering (emulates a connection reset). */
  | { kind: 'destroy' }
  /** Never answer; the socket is released when the server closes. */
  | { kind: 'hang' };

export type JsonTransform = (body: unknown) => unknown;

export function json(body: unknown, status = 200, headers?: Record<string, string>): Reply {
  return headers ? { kind: 'json', status, body, headers } : { kind: 'json', status, body };
}

export function text(body: string, status: number, contentType = 'text/plain; charset=utf-8'): Reply {
  return { kind: 'text', status, contentType, body };
}

/** FastAPI's RequestValidationError handler. */
export function validationFailed(issues: ValidationIssue[]): Reply {
  return json({ detail: issues }, 422);
}

/** The agent server's handler for an uncaught exception: `exception` is `str(exc)` ("" for a bare assert). */
export function agentServerError(exception: string): Reply {
  return json({ detail: 'Internal Server Error', exception, error_id: randomUUID().replace(/-/g, '') }, 500);
}

/** Starlette's ServerErrorMiddleware answer for an uncaught exception (assert, ValueError...). */
export function internalServerError(): Reply {
  return text('Internal Server Error', 500);
}

export function notFound(): Reply {
  return json({ detail: 'Not Found' }, 404);
}

export function methodNotAllowed(): Reply {
  return json({ detail: 'Method Not Allowed' }, 405);
}

export function writeReply(response: ServerResponse, reply: Reply, transform: JsonTransform): void {
  switch (reply.kind) {
    case 'json': {
      const payload = JSON.stringify(transform(reply.body));
      response.writeHead(reply.status, {
        ...reply.headers,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(payload),
      });
      response.end(payload);
      return;
    }
    case 'text':
      response.writeHead(reply.status, {
        ...reply.headers,
        'content-type': reply.contentType,
        'content-length': Buffer.byteLength(reply.body),
      });
      response.end(reply.body);
      return;
    case 'bytes':
      response.writeHead(reply.status, {
        ...reply.headers,
        'content-type': reply.contentType,
        'content-length': reply.body.length,
      });
      response.end(reply.body);
      return;
    case 'chunked':
      response.writeHead(reply.status, { ...reply.headers, 'content-type': reply.contentType });
      response.end(reply.body);
      return;
    case 'stream':
      response.writeHead(reply.status, { 'content-type': reply.contentType });
      reply.run(createSink(response, transform));
      return;
    case 'destroy':
      response.socket?.destroy();
      return;
    case 'hang':
      return;
  }
}

function createSink(response: ServerResponse, transform: JsonTransform): StreamSink {
  let closed = false;
  const listeners: (() => void)[] = [];
  response.on('close', () => {
    if (closed) return;
    closed = true;
    for (const listener of listeners) listener();
  });
  return {
    writeRaw(chunk) {
      if (!closed) response.write(chunk);
    },
    writeJson(value) {
      if (!closed) response.write(JSON.stringify(transform(value)));
    },
    end() {
      if (!closed) response.end();
    },
    get closed() {
      return closed;
    },
    onClose(listener) {
      listeners.push(listener);
    },
  };
}

/**
 * The first `afterBytes` of a bytes reply, then the connection dropped: a body cut off as a proxy or a
 * crashed worker leaves it (the `cut` fault). Other replies are written whole.
 */
export function writeCutReply(
  response: ServerResponse,
  reply: Reply,
  afterBytes: number,
  transform: JsonTransform,
): void {
  if (reply.kind !== 'bytes' && reply.kind !== 'chunked') return writeReply(response, reply, transform);
  response.writeHead(reply.status, {
    ...reply.headers,
    'content-type': reply.contentType,
    ...(reply.kind === 'bytes' ? { 'content-length': reply.body.length } : {}),
  });
  response.write(reply.body.subarray(0, afterBytes), () => response.socket?.destroy());
}
