/**
 * Where a conversation's agent server is, as the app server says: `conversation_url` is
 * `<agent server>/api/conversations/<id>` and `session_api_key` is the sandbox's key. Both are null
 * unless the sandbox is running. The base keeps any path prefix (hosted runtimes are path-routed).
 */
import { normalizeUuid } from '../uuid';

export interface AgentEndpoint {
  /** `http(s)://host[:port][/prefix]`, no trailing slash. */
  baseUrl: string;
  /** Dashless hex, as the app server names it; the agent server takes either form. */
  conversationId: string;
  /** The sandbox's key: a secret, like the API key. */
  sessionApiKey: string | undefined;
}

const CONVERSATION_PATH = /\/api\/conversations\/([0-9a-fA-F-]{32,36})\/?$/;

/** The endpoint of a running conversation, or undefined when the app server gave none (or a URL we cannot use). */
export function agentEndpointOf(conversation: {
  id: string;
  conversation_url: string | null;
  session_api_key: string | null;
}): AgentEndpoint | undefined {
  const url = conversation.conversation_url;
  if (!url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  const match = CONVERSATION_PATH.exec(parsed.pathname);
  const prefix = match ? parsed.pathname.slice(0, match.index) : parsed.pathname.replace(/\/+$/, '');
  return {
    baseUrl: `${parsed.protocol}//${parsed.host}${prefix}`,
    conversationId: normalizeUuid(match?.[1] ?? conversation.id),
    sessionApiKey: conversation.session_api_key || undefined,
  };
}

/** The events socket's URL: `ws(s)://<base>/sockets/events/<id>` plus the query. */
export function eventSocketUrl(baseUrl: string, conversationId: string, query: URLSearchParams): string {
  const wsBase = baseUrl.replace(/^http/, 'ws');
  const search = query.toString();
  return `${wsBase}/sockets/events/${encodeURIComponent(conversationId)}${search ? `?${search}` : ''}`;
}
