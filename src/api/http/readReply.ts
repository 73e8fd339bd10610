/**
 * The third step of a request: reading a streamed reply's body, bounded. Text and bytes whole up to
 * a size cap, a JSON array element by element, a JSON reply skimmed (its strings cut to their heads);
 * a compressed body unpacked here, strictly, so that a cut one fails rather than reads short.
 */
import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createUnzip } from 'node:zlib';
import type { CallFailures } from '../failures';
import { JsonArrayStreamParser } from '../jsonArrayStream';
import { JsonStringHeads } from '../jsonStringHeads';
import type { ReplyHead } from './sendRequest';

/** Our replies nest a dozen levels at most; anything near this is hostile. */
export const MAX_JSON_DEPTH = 256;

/** What a bytes call can decompress, strictly (all of the stream, or an error). */
export const ACCEPTED_ENCODINGS = 'gzip, deflate, br';

/**
 * A reply's body as sent before compression, or undefined for an encoding not offered. Decompressed
 * to the end or failing, so a file or a patch comes whole or not at all; a size limit then counts
 * what it unpacks to.
 */
export function decodedBody(body: Readable, encoding: string): Readable | undefined {
  if (encoding === '' || encoding === 'identity') return body;
  // createUnzip reads both gzip and zlib-wrapped deflate; an error surfaces where the body is read
  if (encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'deflate')
    return pipeline(body, createUnzip(), () => {});
  if (encoding === 'br') return pipeline(body, createBrotliDecompress(), () => {});
  return undefined;
}

export function contentEncodingOf(head: ReplyHead): string {
  const value: unknown = head.headers['content-encoding'];
  return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

/** Response headers, names in lower case. */
export function plainHeaders(head: ReplyHead): Record<string, string> {
  const plain: Record<string, string> = {};
  for (const [name, value] of Object.entries(head.headers as Record<string, unknown>)) {
    if (typeof value === 'string') plain[name.toLowerCase()] = value;
    else if (typeof value === 'number') plain[name.toLowerCase()] = String(value);
  }
  return plain;
}

/** The whole body as text, decoded as a stream (split characters intact), refused past `maxBytes`. */
export async function readText(
  failures: CallFailures,
  body: Readable,
  maxBytes: number,
  signal: AbortSignal,
): Promise<string> {
  const decoder = new TextDecoder('utf-8');
  let text = '';
  let bytes = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    signal.throwIfAborted();
    bytes += chunk.length;
    if (bytes > maxBytes) throw failures.tooLarge(maxBytes);
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

/** The whole body as bytes (binary-safe), refused past `maxBytes`. */
export async function readBytes(
  failures: CallFailures,
  body: Readable,
  maxBytes: number,
  signal: AbortSignal,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    signal.throwIfAborted();
    bytes += chunk.length;
    if (bytes > maxBytes) throw failures.tooLarge(maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, bytes);
}

/**
 * A JSON array handed to `onElement` element by element as it streams, refused past `maxBytes`, too
 * deep, malformed, or ended before it was complete.
 */
export async function readArray(
  failures: CallFailures,
  body: Readable,
  status: number,
  maxBytes: number,
  signal: AbortSignal,
  onElement: (element: unknown) => void,
): Promise<void> {
  const parser = new JsonArrayStreamParser({ maxDepth: MAX_JSON_DEPTH });
  const decoder = new TextDecoder('utf-8');
  let bytes = 0;
  const take = (text: string) => {
    let elements: unknown[];
    try {
      elements = parser.push(text);
    } catch {
      throw parser.tooDeep ? failures.tooDeep(status, MAX_JSON_DEPTH) : failures.malformedJson(status, bytes);
    }
    for (const element of elements) onElement(element);
  };
  for await (const chunk of body as AsyncIterable<Buffer>) {
    // after an abort the call has settled: no progress may be reported for it
    signal.throwIfAborted();
    bytes += chunk.length;
    if (bytes > maxBytes) throw failures.tooLarge(maxBytes);
    // a character split across chunks is decoded once its last byte arrives
    take(decoder.decode(chunk, { stream: true }));
  }
  take(decoder.decode());
  if (!parser.complete) throw failures.streamEndedEarly(status);
}

/**
 * A JSON body that may be larger than the size limit, read as it streams with every string kept to
 * its first `maxStringChars` characters (`JsonStringHeads`), up to `maxBytes` in all: what is left
 * (its structure and the heads of its strings) held to `maxKeptBytes`. `bytes` is the whole body's length.
 */
export async function readSkimmed(
  failures: CallFailures,
  body: Readable,
  limits: { maxBytes: number; maxStringChars: number; maxKeptBytes: number },
  signal: AbortSignal,
): Promise<{ text: string; bytes: number }> {
  const heads = new JsonStringHeads(limits.maxStringChars, limits.maxKeptBytes);
  const decoder = new TextDecoder('utf-8');
  let bytes = 0;
  const push = (text: string) => {
    try {
      heads.push(text);
    } catch {
      throw failures.tooLarge(limits.maxKeptBytes);
    }
  };
  for await (const chunk of body as AsyncIterable<Buffer>) {
    signal.throwIfAborted();
    bytes += chunk.length;
    if (bytes > limits.maxBytes) throw failures.tooLarge(limits.maxBytes);
    push(decoder.decode(chunk, { stream: true }));
  }
  push(decoder.decode());
  return { text: heads.text, bytes };
}
