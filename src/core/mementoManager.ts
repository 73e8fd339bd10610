/**
 * Everything the extension keeps in globalState, none of it secret: the MCP form's non-secret half per
 * server URL, and the plain-http:// servers the user agreed to send the API key to.
 */
import type * as vscode from 'vscode';
import { serverSlotKey } from './secretsManager';

type MementoLike = Pick<vscode.Memento, 'get' | 'update'>;

/** Stored data: never rename these keys. */
const MCP_FORM_PREFIX = 'openhands.mcpForm.config:';
const PLAIN_HTTP_ALLOWED = 'openhands.plainHttpAllowed';

export class MementoManager {
  constructor(private readonly memento: MementoLike) {}

  /** The MCP form's URLs, names, commands, args, env names and hosts for a server, as stored (unchecked). */
  mcpForm(serverUrl: string): unknown {
    return this.memento.get(serverSlotKey(MCP_FORM_PREFIX, serverUrl));
  }

  /** `undefined` removes it. */
  setMcpForm(serverUrl: string, value: unknown): Thenable<void> {
    return this.memento.update(serverSlotKey(MCP_FORM_PREFIX, serverUrl), value);
  }

  /** Normalised server URLs (they cannot hold credentials: `checkServerUrl` refuses them). */
  plainHttpAllowed(): string[] {
    const stored = this.memento.get<unknown>(PLAIN_HTTP_ALLOWED);
    return Array.isArray(stored) ? stored.filter((url): url is string => typeof url === 'string') : [];
  }

  setPlainHttpAllowed(urls: readonly string[]): Thenable<void> {
    return this.memento.update(PLAIN_HTTP_ALLOWED, [...urls]);
  }
}
