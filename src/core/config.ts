import * as vscode from 'vscode';
import { checkServerUrl, type AuthHeader } from '../api';

export const SECTION = 'openhands';

export type HttpLogLevel = 'off' | 'requests' | 'bodies';

export interface ExtensionConfig {
  /** The validated server URL, or undefined with `serverUrlProblem` saying why. */
  serverUrl: string | undefined;
  serverUrlProblem: string | undefined;
  /** The raw setting, for messages. */
  rawServerUrl: string;
  authHeader: AuthHeader;
  requestTimeoutMs: number;
  activeRefreshMs: number;
  idleRefreshMs: number;
  httpLogLevel: HttpLogLevel;
  pageSize: number;
}

const AUTH_HEADERS: readonly AuthHeader[] = ['X-Session-API-Key', 'Authorization', 'X-Access-Token'];

export function readConfig(): ExtensionConfig {
  const config = vscode.workspace.getConfiguration(SECTION);
  const rawServerUrl = config.get<string>('serverUrl', 'http://localhost:3000');
  const check = checkServerUrl(rawServerUrl);
  const authHeader = config.get<string>('authHeader', 'X-Session-API-Key');
  return {
    serverUrl: check.ok ? check.url : undefined,
    serverUrlProblem: check.ok ? undefined : check.message,
    rawServerUrl,
    authHeader: AUTH_HEADERS.find((header) => header === authHeader) ?? 'X-Session-API-Key',
    requestTimeoutMs: seconds(config.get<number>('requestTimeoutSeconds', 30), 1, 600) * 1000,
    activeRefreshMs: seconds(config.get<number>('refresh.activeIntervalSeconds', 2), 0.5, 60) * 1000,
    idleRefreshMs: seconds(config.get<number>('refresh.idleIntervalSeconds', 15), 2, 3600) * 1000,
    httpLogLevel:
      (['off', 'requests', 'bodies'] as const).find((level) => level === config.get('httpLogLevel')) ??
      'requests',
    pageSize: Math.round(seconds(config.get<number>('pageSize', 50), 5, 100)),
  };
}

/** Settings the user can set to nonsense; clamp instead of failing. */
function seconds(value: number, min: number, max: number): number {
  return Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : min;
}

export function affectsUs(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration(SECTION);
}
