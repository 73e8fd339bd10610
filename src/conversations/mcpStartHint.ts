/**
 * Which MCP servers to look at when a conversation could not start. On OpenHands 1.11 an MCP server
 * the sandbox cannot reach fails every start: the agent server answers the app server's
 * `POST /api/conversations` with a 500, and the start task ends in ERROR with httpx's words for it,
 * `Server error '500 Internal Server Error' for url 'http://localhost:8000/api/conversations'` (seen
 * with the real server, for an SSE and a streamable HTTP server on a closed port alike). Nothing in
 * the reply names the MCP server, so the extension names the ones configured.
 */
import { isApiError, redactUrl, StartTaskFailedError, type Settings } from '../api';

/** At most this many servers are named; the rest are counted. */
export const MAX_NAMED_SERVERS = 5;

/**
 * A failure a broken MCP server may cause: a start task in ERROR whose detail is a 500 (or says
 * nothing), or a start the server itself answered with a 500.
 */
export function mayBeMcpStartFailure(error: unknown): boolean {
  if (error instanceof StartTaskFailedError) {
    const detail = error.serverMessage ?? '';
    return detail.trim() === '' || /\b500\b/.test(detail);
  }
  return isApiError(error) && error.kind === 'server' && error.status === 500;
}

/**
 * The MCP servers the user's settings configure, each as a short secret-free label: a remote
 * server by its name (1.11) and host, a stdio server by its name and command.
 */
export function configuredMcpServers(settings: Settings): string[] {
  const labels: string[] = [];
  const map = settings.agent_settings?.mcp_config;
  if (map) {
    for (const [name, entry] of Object.entries(map)) {
      if (entry.url !== undefined) labels.push(`${name} (${hostOf(entry.url)})`);
      else if (entry.command !== undefined) labels.push(`${name} (${entry.command})`);
    }
    return labels;
  }
  const lists = settings.mcp_config;
  for (const server of [...(lists?.sse_servers ?? []), ...(lists?.shttp_servers ?? [])])
    labels.push(hostOf(server.url));
  for (const server of lists?.stdio_servers ?? []) labels.push(`${server.name} (${server.command})`);
  // hosts only (a path may carry a key), so two servers on one host read alike: name it once
  return [...new Set(labels)];
}

/** The labels joined for a sentence: the first few, then how many more. */
export function namedServers(labels: readonly string[], more: (count: number) => string): string {
  const named = labels.slice(0, MAX_NAMED_SERVERS).join(', ');
  return labels.length > MAX_NAMED_SERVERS ? `${named} ${more(labels.length - MAX_NAMED_SERVERS)}` : named;
}

function hostOf(url: string): string {
  try {
    return new URL(url.trim()).host || redactUrl(url);
  } catch {
    return redactUrl(url);
  }
}
