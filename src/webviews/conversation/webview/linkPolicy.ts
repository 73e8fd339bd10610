/**
 * Which links a message may hold: http(s) and mailto only, absolute, of a sane length. Everything
 * else (javascript:, command:, file:, data:, vscode:, relative paths) is shown as plain text. The
 * page never follows a link itself: a click posts `openLink` and the host opens it (checking again).
 * Pure: unit-tested in Node.
 */

/** The protocol's limit on `openLink.url`. */
export const MAX_LINK_LENGTH = 8192;

const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** The normalised URL when a link may be offered, otherwise undefined. */
export function safeLinkUrl(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const trimmed = raw.trim();
  if (trimmed === '' || trimmed.length > MAX_LINK_LENGTH) return undefined;
  let url: URL;
  try {
    // no base: a relative link has nothing to resolve against, and is refused
    url = new URL(trimmed);
  } catch {
    return undefined;
  }
  if (!ALLOWED_PROTOCOLS.has(url.protocol)) return undefined;
  if (url.protocol !== 'mailto:' && url.hostname === '') return undefined;
  const href = url.href;
  return href.length > MAX_LINK_LENGTH ? undefined : href;
}
