import * as z from 'zod/mini';
import '../../zodLocale';
import { normalizeUuid } from '../uuid';

/**
 * An enum a newer server may extend. Known values keep their literal types for exhaustive UI code,
 * unknown ones are kept as plain strings instead of failing the whole reply.
 */
export type OpenEnum<Known extends string> = Known | (string & {});

export function openEnum<const Known extends readonly string[]>(_known: Known) {
  return z.custom<OpenEnum<Known[number]>>((value) => typeof value === 'string', {
    message: 'Expected a string',
  });
}

/** A field the server may send as null or (older/hosted servers) leave out. */
export function nullable<T extends z.ZodMiniType>(schema: T) {
  return z._default(z.nullable(schema), null);
}

/** A UUID as the server emits it (dashless hex); dashed input is normalised so ids compare equal. */
export const uuidString = z.pipe(z.string(), z.transform(normalizeUuid));

/**
 * ISO-8601 datetime, kept as the server's string. A time without a zone is UTC: openhands-ai 1.11.0
 * sends start tasks read back from its database without one (`2026-11-22T21:09:40.880019`) while
 * everything else carries `Z`; `Z` is added so that `new Date()` does not read it as local time.
 */
export const isoDateTime = z.pipe(
  z.string(),
  // most times end in Z: no pattern runs on them (twice per conversation of a 10,000-row list)
  z.transform((value: string) =>
    !value.endsWith('Z') && /T\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(value) ? `${value}Z` : value,
  ),
);

export function pageOf<T extends z.ZodMiniType>(item: T) {
  return z.looseObject({
    items: z.array(item),
    next_page_id: nullable(z.string()),
  });
}

export interface Page<T> {
  items: T[];
  next_page_id: string | null;
}

export const SuccessSchema = z.looseObject({ success: z._default(z.boolean(), true) });
export type Success = z.infer<typeof SuccessSchema>;

/** Replies of the legacy `/api/*` routes: `{"message": …}` */
export const MessageReplySchema = z.looseObject({ message: z.optional(z.string()) });
export type MessageReply = z.infer<typeof MessageReplySchema>;
