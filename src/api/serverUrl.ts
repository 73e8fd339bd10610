export type ServerUrlCheck = { ok: true; url: string } | { ok: false; message: string };

/** Validates a user-supplied server URL and returns it without a trailing slash. */
export function checkServerUrl(input: string): ServerUrlCheck {
  const trimmed = input.trim();
  if (!trimmed) return { ok: false, message: 'The server URL is empty.' };
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return { ok: false, message: `"${trimmed}" is not a URL. Use a form like http://localhost:3000.` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return {
      ok: false,
      message: `The server URL must start with http:// or https:// (got ${parsed.protocol}//).`,
    };
  }
  if (!parsed.hostname) return { ok: false, message: 'The server URL has no host name.' };
  if (parsed.search || parsed.hash) {
    return { ok: false, message: 'The server URL must not contain a query (?…) or fragment (#…).' };
  }
  if (parsed.username || parsed.password) {
    return { ok: false, message: 'Put credentials in the API key, not in the server URL.' };
  }
  return { ok: true, url: parsed.toString().replace(/\/+$/, '') };
}
