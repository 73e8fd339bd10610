/**
 * Keeping or closing a conversation on the app server (OpenHands 1.11): rename (`PATCH`), delete
 * (`DELETE`; the server deletes the sandbox afterwards when no other conversation uses it), download
 * (the server's zip of its metadata and events) and a message queued while it starts. Each call says
 * `NOT_OFFERED` for a route the server does not have, and throws an `ApiError` for anything else.
 */
import type * as z from 'zod/mini';
import { ApiError, isApiError } from './errors';
import type { HttpTransport } from './http/transport';
import { ifOffered, NOT_OFFERED, offered, type Offered } from './modelSetup/offered';
import {
  AppConversationSchema,
  OpenApiPathsSchema,
  PendingMessageReplySchema,
  SuccessSchema,
  type AppConversation,
  type PendingMessageReply,
  type Success,
} from './models';
import type { CallOptions } from './signals';
import { AgentEventSchema, type AgentEvent } from './agentServer/events';
import { readZip, type ZipLimits } from './zipReader';

const V1 = '/api/v1';
/** The server's own limit on messages waiting for one conversation (pending_message_router.py). */
export const MAX_QUEUED_MESSAGES = 10;
/** A zip of 10000 events is built while it streams: one deadline for all of it. */
const DOWNLOAD_TIMEOUT_MS = 5 * 60_000;
/** A title longer than this is refused here (the server stores any length; a row shows a line). */
export const MAX_TITLE_CHARS = 200;

/** Which of these routes the server lists in its OpenAPI document. */
export interface ManageOffers {
  rename: boolean;
  delete: boolean;
  download: boolean;
  queueMessage: boolean;
}

export interface DownloadOptions extends CallOptions {
  /** Larger zips are refused (at most the client's reply limit). */
  maxBytes?: number;
  timeoutMs?: number;
}

export class ConversationManageApi {
  constructor(private readonly transport: HttpTransport) {}

  /**
   * What the server's `/openapi.json` lists; `undefined` when it has no readable document (a hosted
   * service may hide it): then each call finds out for itself.
   */
  async offers(options: CallOptions = {}): Promise<ManageOffers | undefined> {
    let document: z.infer<typeof OpenApiPathsSchema>;
    try {
      document = await this.transport.request({
        method: 'GET',
        path: '/openapi.json',
        schema: OpenApiPathsSchema,
        signal: options.signal,
      });
    } catch (error) {
      if (isApiError(error) && error.kind === 'cancelled') throw error;
      return undefined;
    }
    const paths = document.paths;
    if (!paths) return undefined;
    const has = (path: string, method: string): boolean => {
      const item = paths[path];
      return typeof item === 'object' && item !== null && method in item;
    };
    const one = `${V1}/app-conversations/{conversation_id}`;
    return {
      rename: has(one, 'patch'),
      delete: has(one, 'delete'),
      download: has(`${one}/download`, 'get'),
      queueMessage: has(`${V1}/conversations/{conversation_id}/pending-messages`, 'post'),
    };
  }

  /** Sets the title; the reply is the conversation as it is now. */
  async rename(
    conversationId: string,
    title: string,
    options: CallOptions = {},
  ): Promise<Offered<AppConversation>> {
    const trimmed = title.trim();
    if (!trimmed)
      throw new ApiError({ kind: 'validation', message: 'A conversation title cannot be empty.' });
    if (trimmed.length > MAX_TITLE_CHARS)
      throw new ApiError({
        kind: 'validation',
        message: `A conversation title is at most ${MAX_TITLE_CHARS} characters.`,
      });
    return ifOffered(() =>
      this.transport.request({
        method: 'PATCH',
        path: conversationPath(conversationId),
        body: { title: trimmed },
        schema: AppConversationSchema,
        signal: options.signal,
      }),
    );
  }

  /** Deletes the conversation (and its sub-conversations); the server deletes an unshared sandbox after. */
  async delete(conversationId: string, options: CallOptions = {}): Promise<Offered<Success>> {
    return ifOffered(() =>
      this.transport.request({
        method: 'DELETE',
        path: conversationPath(conversationId),
        schema: SuccessSchema,
        signal: options.signal,
      }),
    );
  }

  /**
   * The server's zip of the conversation (`meta.json` and one file per event), read whole under one
   * deadline and the size cap, and checked to be a whole zip: a cut body is an error, never a file.
   */
  async download(conversationId: string, options: DownloadOptions = {}): Promise<Offered<Buffer>> {
    const path = `${conversationPath(conversationId)}/download`;
    const reply = await ifOffered(() =>
      this.transport.requestBytes({
        path,
        signal: options.signal,
        maxBytes: options.maxBytes,
        timeoutMs: options.timeoutMs ?? DOWNLOAD_TIMEOUT_MS,
      }),
    );
    if (!reply.offered) return reply;
    const type = (reply.value.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    // the web UI's page answers a GET the server has no route for
    if (type === 'text/html') return NOT_OFFERED;
    if (type !== 'application/zip' || !isWholeZip(reply.value.bytes))
      throw new ApiError({
        kind: 'invalid_response',
        method: 'GET',
        path,
        status: 200,
        message: `The server's download of the conversation is not a whole zip file (${type || 'no content type'}, ${reply.value.bytes.length} bytes).`,
      });
    return offered(reply.value.bytes);
  }

  /**
   * Queues a message on the server for a conversation still starting (`task-<hex>` for a start task);
   * the server sends it to the agent when the conversation is ready. 10 at most wait at once.
   */
  async queueMessage(
    conversationId: string,
    text: string,
    options: CallOptions = {},
  ): Promise<Offered<PendingMessageReply>> {
    try {
      return await ifOffered(() =>
        this.transport.request({
          method: 'POST',
          path: `${V1}/conversations/${encodeURIComponent(conversationId)}/pending-messages`,
          body: { role: 'user', content: [{ type: 'text', text }] },
          schema: PendingMessageReplySchema,
          signal: options.signal,
        }),
      );
    } catch (error) {
      if (isApiError(error) && error.status === 429)
        throw new ApiError({
          kind: 'rate_limited',
          status: 429,
          method: 'POST',
          path: error.path,
          message: `The server already holds ${MAX_QUEUED_MESSAGES} queued messages for this conversation, its limit. Send this one once the agent has started.`,
        });
      throw error;
    }
  }
}

function conversationPath(conversationId: string): string {
  if (!conversationId) throw new ApiError({ kind: 'validation', message: 'A conversation id is needed.' });
  return `${V1}/app-conversations/${encodeURIComponent(conversationId)}`;
}

/** Zip's end record (`PK\x05\x06`) within its last 22 + 65535 bytes: the whole directory arrived. */
function isWholeZip(bytes: Buffer): boolean {
  if (bytes.length < 22) return false;
  if (bytes.readUInt32LE(0) !== 0x04034b50 && bytes.readUInt32LE(0) !== 0x06054b50) return false;
  const from = Math.max(0, bytes.length - 22 - 0xffff);
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < from || end + 22 > bytes.length) return false;
  const commentLength = bytes.readUInt16LE(end + 20);
  const directorySize = bytes.readUInt32LE(end + 12);
  const directoryOffset = bytes.readUInt32LE(end + 16);
  return end + 22 + commentLength === bytes.length && directoryOffset + directorySize === end;
}

/** A download's events are read within these: 10000 events is the server's own export limit. */
const EXPORT_LIMITS: ZipLimits = {
  maxEntries: 10_001,
  maxEntryBytes: 64 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
};

/**
 * The events of a downloaded conversation zip, in the server's order (`event_NNNNNN_<id>.json`); an
 * entry that is not an event is left out and counted.
 */
export function exportedEvents(zip: Buffer): { events: AgentEvent[]; skipped: number } {
  const entries = readZip(zip, EXPORT_LIMITS)
    .filter((entry) => /^event_\d{6,}_[^/\\]*\.json$/.test(entry.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const events: AgentEvent[] = [];
  let skipped = 0;
  for (const entry of entries) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(entry.bytes.toString('utf8'));
    } catch {
      skipped++;
      continue;
    }
    const event = AgentEventSchema.safeParse(parsed);
    if (event.success) events.push(event.data);
    else skipped++;
  }
  return { events, skipped };
}
