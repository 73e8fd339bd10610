/**
 * The last step of a request: what its reply means. A value of the schema's shape, or the `ApiError`
 * that says why not (an error status, a redirect, no content, not JSON, too deep, malformed, another
 * shape); every secret the reply carries is learned first, so that the error and the log mask it.
 */
import type { ApiError } from '../errors';
import { DOUBT, fastParser } from '../models/fastParse';
import { RepeatedReplies } from '../repeatedReplies';
import { nestsDeeperThan, parseJsonOrUndefined } from '../serverText';
import type { Call } from './buildRequest';
import { MAX_JSON_DEPTH } from './readReply';
import type { ReplyHead } from './sendRequest';

export class ReplyInterpreter {
  private readonly repeatedReplies = new RepeatedReplies();

  /** A reply read whole, as the value of the call's schema; throws the `ApiError` that says why not. */
  value<T>(call: Call<T>, head: ReplyHead, text: string): T {
    const { status, contentType } = head;
    const polled = call.spec.polled && call.spec.method === 'GET';
    const repeated = polled
      ? this.repeatedReplies.find(call.path, call.spec.schema, status, contentType, text)
      : undefined;
    if (repeated) {
      call.secrets.learn(repeated.secrets);
      call.repeated = true;
      return repeated.value as T;
    }
    const parsed = isJsonReply(status, contentType) ? parseJsonOrUndefined(text) : undefined;
    const scan = call.secrets.learnFromReply(parsed, text, MAX_JSON_DEPTH);
    const refused = this.refusal(call, head, text);
    if (refused) throw refused;
    if (scan.tooDeep || (parsed === undefined && nestsDeeperThan(text, MAX_JSON_DEPTH)))
      throw call.failures.tooDeep(status, MAX_JSON_DEPTH);
    if (parsed === undefined) throw call.failures.malformedJson(status, Buffer.byteLength(text));
    const value = this.validate(call, status, parsed);
    if (polled)
      this.repeatedReplies.remember(call.path, {
        status,
        contentType,
        text,
        schema: call.spec.schema,
        value,
        secrets: scan.secrets,
      });
    return value;
  }

  /** One element of a streamed array, its secrets learned, as the value of the call's schema. */
  streamedElement<T>(call: Call<T>, status: number, element: unknown): T {
    call.secrets.learnFromValue(element);
    return this.validate(call, status, element);
  }

  /** Why a reply that is not what the call reads (an error, a page) is refused. */
  refused(call: Call<unknown>, head: ReplyHead, text: string): ApiError {
    call.secrets.learnFromText(text);
    // never undefined here: whatever is not what the call reads is refused
    return this.refusal(call, head, text) ?? call.failures.notJson(head.status, head.contentType);
  }

  /** A reply with a failed status (not 2xx), as its `ApiError`. */
  failed(call: Call<unknown>, head: ReplyHead, text: string): ApiError {
    call.secrets.learnFromText(text);
    return this.failure(call, head, text);
  }

  /** Why a reply holds no JSON to read (an error status, no content, another type), or undefined. */
  private refusal(call: Call<unknown>, head: ReplyHead, text: string): ApiError | undefined {
    const { status, contentType } = head;
    if (status < 200 || status >= 300) return this.failure(call, head, text);
    if (status === 204 || status === 205 || (text === '' && !contentType))
      return call.failures.noContent(status);
    if (!/\bjson\b/i.test(contentType)) return call.failures.notJson(status, contentType);
    return undefined;
  }

  private failure(call: Call<unknown>, head: ReplyHead, text: string): ApiError {
    const { status, contentType, headers } = head;
    if (status >= 300 && status < 400) return call.failures.redirect(status, headers.location);
    // a hostile error body must not reach the recursive walks either
    const safeText = nestsDeeperThan(text, MAX_JSON_DEPTH) ? '' : text;
    return call.failures.status(status, contentType, safeText, headers['retry-after']);
  }

  private validate<T>(call: Call<T>, status: number, json: unknown): T {
    // the schema's compiled check first; zod itself for whatever it is not sure of, and for the error
    const fast = fastParser(call.spec.schema)(json);
    if (fast !== DOUBT) return fast as T;
    const parsed = call.spec.schema.safeParse(json);
    if (parsed.success) return parsed.data;
    const where = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw call.failures.shape(status, where);
  }
}

/** A reply that should hold JSON to read: a success with content, said to be JSON. */
function isJsonReply(status: number, contentType: string): boolean {
  return status >= 200 && status < 300 && status !== 204 && status !== 205 && /\bjson\b/i.test(contentType);
}
