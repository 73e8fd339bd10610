/**
 * Everything the extension keeps in globalState, none of it secret: the plain-http:// servers the user
 * agreed to send the API key to, the ids of the conversations it watches (and, read once to move it,
 * the MCP form's copy of earlier builds).
 */
import type * as vscode from 'vscode';
import { serverSlotKey } from './secretsManager';

type MementoLike = Pick<vscode.Memento, 'get' | 'update'>;

/** Stored data: never rename these keys. */
const MCP_FORM_PREFIX = 'openhands.mcpForm.config:';
const PLAIN_HTTP_ALLOWED = 'openhands.plainHttpAllowed';
const WATCHED_CONVERSATIONS = 'openhands.watchedConversations';
/** The newest this many watched conversations are kept. */
const MAX_WATCHED = 200;

export class MementoManager {
  constructor(private readonly memento: MementoLike) {}

  /** What builds before 0.1.0 kept of a server's MCP form (URLs, names, ids), unchecked; undefined when none. */
  earlierMcpForm(serverUrl: string): unknown {
    return this.memento.get(serverSlotKey(MCP_FORM_PREFIX, serverUrl));
  }

  clearEarlierMcpForm(serverUrl: string): Thenable<void> {
    return this.memento.update(serverSlotKey(MCP_FORM_PREFIX, serverUrl), undefined);
  }

  /** Normalised server URLs (they cannot hold credentials: `checkServerUrl` refuses them). */
  plainHttpAllowed(): string[] {
    const stored = this.memento.get<unknown>(PLAIN_HTTP_ALLOWED);
    return Array.isArray(stored) ? stored.filter((url): url is string => typeof url === 'string') : [];
  }

  setPlainHttpAllowed(urls: readonly string[]): Thenable<void> {
    return this.memento.update(PLAIN_HTTP_ALLOWED, [...urls]);
  }

  /** Conversation ids (dashless hex) started or opened in VS Code, oldest first: ids only, no content. */
  watchedConversations(): string[] {
    const stored = this.memento.get<unknown>(WATCHED_CONVERSATIONS);
    return Array.isArray(stored)
      ? stored.filter((id): id is string => typeof id === 'string' && /^[0-9a-f]{32}$/.test(id))
      : [];
  }

  setWatchedConversations(ids: readonly string[]): Thenable<void> {
    return this.memento.update(WATCHED_CONVERSATIONS, ids.slice(-MAX_WATCHED));
  }
}
