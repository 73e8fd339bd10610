/**
 * The last reply of each polled list, read and checked: a poll that finds the very text it found
 * last time gets the same value back without parsing, scanning or validating it again (a refresh
 * with nothing new reads three such replies a second). The values are frozen, since one reply's
 * objects now reach several callers.
 */
interface RepeatedReply {
  status: number;
  contentType: string;
  text: string;
  schema: unknown;
  value: unknown;
  /** The secrets the reply carried, masked again in each call that gets it. */
  secrets: readonly string[];
}

/** Paths remembered: the lists a refresh polls, with room for a filter or two. */
const MAX_PATHS = 16;
/** A longer reply is not kept: a poll's pages are a few dozen KB. */
const MAX_TEXT_CHARS = 256 * 1024;

export class RepeatedReplies {
  private readonly replies = new Map<string, RepeatedReply>();

  /** The value of this path's last reply when this one is the same, else undefined. */
  find(
    path: string,
    schema: unknown,
    status: number,
    contentType: string,
    text: string,
  ): Pick<RepeatedReply, 'value' | 'secrets'> | undefined {
    const last = this.replies.get(path);
    if (!last || last.text !== text || last.schema !== schema) return undefined;
    if (last.status !== status || last.contentType !== contentType) return undefined;
    return last;
  }

  remember(path: string, reply: RepeatedReply): void {
    this.replies.delete(path);
    if (reply.text.length > MAX_TEXT_CHARS) return;
    deepFreeze(reply.value);
    this.replies.set(path, reply);
    // the path asked longest ago goes first
    for (const oldest of this.replies.keys()) {
      if (this.replies.size <= MAX_PATHS) break;
      this.replies.delete(oldest);
    }
  }
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}
