/**
 * Typed messages between a webview and its host, both ways. Each side parses every incoming message
 * with its protocol's zod schema and handles it through a `MessageHandlers` map, so a message type
 * without a handler does not compile and a malformed message is dropped, never acted on.
 * No vscode import: webviews bundle this file.
 */
import type * as z from 'zod/mini';

export type MessageHandlers<M extends { type: string }> = {
  [K in M['type']]: (message: Extract<M, { type: K }>) => void | Promise<void>;
};

/**
 * Parses an untrusted message and runs its handler. Returns false (and runs nothing) when the
 * message does not match the protocol.
 */
export function dispatchMessage<M extends { type: string }>(
  schema: z.ZodMiniType<M>,
  handlers: MessageHandlers<M>,
  raw: unknown,
): { ok: true; result: void | Promise<void> } | { ok: false; problem: string } {
  const parsed = schema.safeParse(raw);
  // Paths and codes only: a malformed message may still carry secret values.
  if (!parsed.success) {
    const problem = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.code}`);
    return { ok: false, problem: problem.join('; ') };
  }
  const message = parsed.data;
  const handler = handlers[message.type as M['type']] as (message: M) => void | Promise<void>;
  return { ok: true, result: handler(message) };
}
