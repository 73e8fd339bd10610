/**
 * The form's rules, run in the webview as the user types and again in the host before anything is
 * stored. They mirror the server's MCPConfig validators (openhands/core/config/mcp_config.py) so a
 * draft that passes here is not refused with a 422 later, plus uniqueness rules the server lacks.
 */
import { fieldPath } from './fieldPath';
import type { FieldErrors, FormDraft, SecretInput } from './formSchema';
import type { UiStringKey, UiStrings } from './uiStrings';

export type UrlProblem = 'empty' | 'spaces' | 'scheme' | 'host';

const URL_SCHEMES = ['http', 'https', 'ws', 'wss'];
const SERVER_NAME = /^[A-Za-z0-9_-]+$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HOST = /^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::\d{1,5})?(?:\/\S*)?$/;
export const MIN_TIMEOUT = 1;
export const MAX_TIMEOUT = 3600;

/** Scheme and host as `urlparse` sees them: `scheme:` then `//netloc`. */
export function urlProblem(raw: string): UrlProblem | undefined {
  const url = raw.trim();
  if (url === '') return 'empty';
  if (/\s/.test(url)) return 'spaces';
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/s.exec(url);
  const scheme = match?.[1]?.toLowerCase();
  if (!scheme || !URL_SCHEMES.includes(scheme)) return 'scheme';
  const rest = match?.[2] ?? '';
  const netloc = rest.startsWith('//') ? (rest.slice(2).split(/[/?#]/)[0] ?? '') : '';
  const host = netloc.replace(/^.*@/, '').replace(/:\d*$/, '');
  return host === '' ? 'host' : undefined;
}

/** Two spellings of the same endpoint count as one: scheme and host are case-insensitive, a trailing `/` is noise. */
export function urlIdentity(raw: string): string {
  const url = raw.trim();
  const match = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/s.exec(url);
  const normalized = match ? `${match[1]?.toLowerCase()}${match[2]?.toLowerCase()}${match[3]}` : url;
  return normalized.replace(/\/+$/, '');
}

/** Empty = the server's default; otherwise a whole number of seconds in range. */
export function parseTimeout(raw: string): number | null | 'invalid' {
  const value = raw.trim();
  if (value === '') return null;
  if (!/^\d+$/.test(value)) return 'invalid';
  const seconds = Number(value);
  return seconds >= MIN_TIMEOUT && seconds <= MAX_TIMEOUT ? seconds : 'invalid';
}

export function hostProblem(raw: string): 'scheme' | 'invalid' | undefined {
  const host = raw.trim();
  if (host === '') return undefined;
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(host)) return 'scheme';
  return HOST.test(host) ? undefined : 'invalid';
}

const URL_MESSAGES: Record<UrlProblem, UiStringKey> = {
  empty: 'errUrlEmpty',
  spaces: 'errUrlSpaces',
  scheme: 'errUrlScheme',
  host: 'errUrlHost',
};

/** Returns every problem of the draft, keyed by field path; empty means it may be stored. */
export function validateDraft(draft: FormDraft, strings: UiStrings): FieldErrors {
  const errors: FieldErrors = {};
  const fail = (path: string, key: UiStringKey) => {
    errors[path] ??= strings[key];
  };

  for (const provider of draft.providers) {
    const token = replacedValue(provider.token);
    if (token !== undefined) {
      if (token.trim() === '') fail(fieldPath.providerToken(provider.provider), 'errSecretEmpty');
      else if (/\s/.test(token.trim())) fail(fieldPath.providerToken(provider.provider), 'errTokenSpaces');
    }
    const host = hostProblem(provider.host);
    if (host === 'scheme') fail(fieldPath.providerHost(provider.provider), 'errHostScheme');
    if (host === 'invalid') fail(fieldPath.providerHost(provider.provider), 'errHostInvalid');
  }

  const seenUrls = new Set<string>();
  const remotes = [
    ...draft.mcp.sse.map((entry, index) => ({ kind: 'sse' as const, index, entry })),
    ...draft.mcp.shttp.map((entry, index) => ({ kind: 'shttp' as const, index, entry })),
  ];
  for (const { kind, index, entry } of remotes) {
    const problem = urlProblem(entry.url);
    if (problem) fail(fieldPath.url(kind, index), URL_MESSAGES[problem]);
    else {
      const identity = urlIdentity(entry.url);
      if (seenUrls.has(identity)) fail(fieldPath.url(kind, index), 'errUrlDuplicate');
      seenUrls.add(identity);
    }
    const apiKey = replacedValue(entry.apiKey);
    if (apiKey !== undefined && apiKey.trim() === '') fail(fieldPath.apiKey(kind, index), 'errSecretEmpty');
  }
  draft.mcp.shttp.forEach((entry, index) => {
    if (parseTimeout(entry.timeout) === 'invalid') fail(fieldPath.timeout(index), 'errTimeout');
  });

  const seenNames = new Set<string>();
  draft.mcp.stdio.forEach((entry, index) => {
    const name = entry.name.trim();
    if (name === '') fail(fieldPath.name(index), 'errNameEmpty');
    else if (!SERVER_NAME.test(name)) fail(fieldPath.name(index), 'errNamePattern');
    else if (seenNames.has(name)) fail(fieldPath.name(index), 'errNameDuplicate');
    seenNames.add(name);

    const command = entry.command.trim();
    if (command === '') fail(fieldPath.command(index), 'errCommandEmpty');
    else if (/\s/.test(command)) fail(fieldPath.command(index), 'errCommandSpaces');

    entry.args.forEach((arg, argIndex) => {
      if (arg.trim() === '') fail(fieldPath.arg(index, argIndex), 'errArgEmpty');
    });

    const seenEnv = new Set<string>();
    entry.env.forEach((row, envIndex) => {
      const envName = row.name.trim();
      if (!ENV_NAME.test(envName)) fail(fieldPath.envName(index, envIndex), 'errEnvName');
      else if (seenEnv.has(envName)) fail(fieldPath.envName(index, envIndex), 'errEnvDuplicate');
      seenEnv.add(envName);
    });
  });
  return errors;
}

function replacedValue(input: SecretInput): string | undefined {
  return input.state === 'replace' ? input.value : undefined;
}
