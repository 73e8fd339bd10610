import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { checkServerUrl, type AuthHeader } from '../api';
import { AUTH_HEADERS, defaultServerName, parseServers, sameServerUrl, SERVERS_SETTING } from './servers';

export const SECTION = 'openhands';

export type HttpLogLevel = 'off' | 'requests' | 'bodies';

/** Which conversations notify when they finish or need the user: none, the ones started or opened here, all running. */
export type NotificationScope = 'off' | 'watched' | 'all';

/** The confirmation policy of conversations started from VS Code; `server` leaves it to the server's settings. */
export type StartConfirmationPolicy = 'server' | 'never' | 'always' | 'risky';

export interface ExtensionConfig {
  /** The validated server URL; undefined when the setting is empty or, with `serverUrlProblem`, invalid. */
  serverUrl: string | undefined;
  serverUrlProblem: string | undefined;
  /** The raw setting, for messages. */
  rawServerUrl: string;
  /** What the user calls the server (its remembered name, or its host); '' when none is set. */
  serverName: string;
  /** Whether the server is among the remembered ones (`openhands.servers`). */
  remembered: boolean;
  /** How many servers are remembered. */
  rememberedCount: number;
  authHeader: AuthHeader;
  requestTimeoutMs: number;
  activeRefreshMs: number;
  idleRefreshMs: number;
  httpLogLevel: HttpLogLevel;
  pageSize: number;
  /** PEM file with extra CAs to trust for an https:// server; '' for none. `~/` is expanded. */
  tlsCaFile: string;
  /** Accept any certificate from an https:// server. */
  tlsInsecure: boolean;
  notifications: NotificationScope;
  confirmationPolicy: StartConfirmationPolicy;
  /** Whether the status bar item shows. */
  showStatusBar: boolean;
}

export function readConfig(): ExtensionConfig {
  const config = vscode.workspace.getConfiguration(SECTION);
  const rawServerUrl = config.get<string>('serverUrl', '');
  const check = checkServerUrl(rawServerUrl);
  const serverUrl = check.ok ? check.url : undefined;
  // a remembered server brings its own header and TLS choice; the plain settings are the default
  const servers = parseServers(config.get<unknown>(SERVERS_SETTING, []));
  const entry = serverUrl ? servers.find((server) => sameServerUrl(server.url, serverUrl)) : undefined;
  const authHeader = entry?.authHeader ?? config.get<string>('authHeader', 'X-Session-API-Key');
  return {
    serverUrl,
    // empty is not a problem: it means "no server" (the views offer Connect to OpenHands…)
    serverUrlProblem: check.ok || !rawServerUrl.trim() ? undefined : check.message,
    rawServerUrl,
    serverName: entry?.name ?? (serverUrl ? defaultServerName(serverUrl) : rawServerUrl.trim()),
    remembered: entry !== undefined,
    rememberedCount: servers.length,
    authHeader: AUTH_HEADERS.find((header) => header === authHeader) ?? 'X-Session-API-Key',
    requestTimeoutMs: seconds(config.get<number>('requestTimeoutSeconds', 30), 1, 600) * 1000,
    activeRefreshMs: seconds(config.get<number>('refresh.activeIntervalSeconds', 2), 0.5, 60) * 1000,
    idleRefreshMs: seconds(config.get<number>('refresh.idleIntervalSeconds', 15), 2, 3600) * 1000,
    httpLogLevel:
      (['off', 'requests', 'bodies'] as const).find((level) => level === config.get('httpLogLevel')) ??
      'requests',
    pageSize: Math.round(seconds(config.get<number>('pageSize', 50), 5, 100)),
    tlsCaFile: expandHome((entry?.caFile ?? config.get<string>('tls.caFile', '')).trim()),
    tlsInsecure: (entry?.insecure ?? config.get<boolean>('tls.insecure', false)) === true,
    notifications:
      (['off', 'watched', 'all'] as const).find((scope) => scope === config.get('notifications')) ??
      'watched',
    confirmationPolicy:
      (['server', 'never', 'always', 'risky'] as const).find(
        (policy) => policy === config.get('confirmationPolicy'),
      ) ?? 'server',
    showStatusBar: config.get<boolean>('statusBar.show', true) !== false,
  };
}

/** The TLS settings a server without its own choice gets (`openhands.tls.*`), `~/` expanded. */
export function defaultTls(): { caFile: string; insecure: boolean } {
  const config = vscode.workspace.getConfiguration(SECTION);
  return {
    caFile: expandHome(config.get<string>('tls.caFile', '').trim()),
    insecure: config.get<boolean>('tls.insecure', false) === true,
  };
}

export function expandHome(file: string): string {
  return file === '~' || file.startsWith('~/') ? path.join(os.homedir(), file.slice(1)) : file;
}

/** Settings the user can set to nonsense; clamp instead of failing. */
function seconds(value: number, min: number, max: number): number {
  return Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : min;
}

export function affectsUs(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration(SECTION);
}
