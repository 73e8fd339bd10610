import * as z from 'zod/mini';
import '../../zodLocale';

/** `PendingMessageResponse` of OpenHands 1.11: a message queued until the conversation is ready. */
export const PendingMessageReplySchema = z.looseObject({
  id: z.string(),
  queued: z.boolean(),
  /** 1-based place in the queue. */
  position: z.number(),
});
export type PendingMessageReply = z.infer<typeof PendingMessageReplySchema>;

/** Only the OpenAPI document's paths and their methods: what a server offers. */
export const OpenApiPathsSchema = z.looseObject({
  paths: z.optional(z.record(z.string(), z.unknown())),
});
export type OpenApiPaths = z.infer<typeof OpenApiPathsSchema>;
