/**
 * Turns a validated draft into the next local state: the secret inputs are resolved against what
 * is stored (keep, replace, clear), new entries get ids, and every provider change is recorded as
 * pending until the server accepts it. Pure: the caller stores the result.
 */
import { carriesMask, credentialKey, maskCredentials, unmaskCredentials } from '../shared/credentials';
import { fieldPath } from '../shared/fieldPath';
import type { FieldErrors, FormDraft, SecretInput } from '../shared/formSchema';
import {
  storedField,
  type LocalConfig,
  type LocalMcp,
  type LocalSecrets,
  type ProviderChange,
} from './localState';
import { buildMcpConfig } from './syncPlan';
import type { UiStrings } from '../shared/uiStrings';
import { parseTimeout } from '../shared/validation';

export type ApplyResult =
  | { ok: true; config: LocalConfig; secrets: LocalSecrets; changed: { tokens: boolean; mcp: boolean } }
  | { ok: false; errors: FieldErrors };

type Resolved = { kind: 'keep' } | { kind: 'new'; value: string } | { kind: 'none' };

/** `set` must refer to a stored value; `unset` and `clear` both mean "no value". */
function resolveSecret(input: SecretInput, stored: boolean): Resolved | 'missing' {
  switch (input.state) {
    case 'set':
      return stored ? { kind: 'keep' } : 'missing';
    case 'replace':
      return { kind: 'new', value: input.value };
    case 'clear':
    case 'unset':
      return { kind: 'none' };
  }
}

export function applyDraft(
  config: LocalConfig,
  secrets: LocalSecrets,
  draft: FormDraft,
  strings: UiStrings,
  newId: () => string,
): ApplyResult {
  const errors: FieldErrors = {};
  const providers = { ...config.providers };
  const pendingProviders = { ...config.pending.providers };
  const providerTokens = { ...secrets.providers };
  let tokensChanged = false;

  for (const entry of draft.providers) {
    const name = entry.provider;
    const stored = providers[name];
    const storedHost = stored?.host ?? null;
    const typedHost = entry.host.trim();
    // Untouched means "exactly what the server reported", `null` and `""` included.
    const hostChanged = typedHost !== (storedHost ?? '');
    const host = hostChanged ? typedHost : storedHost;
    const token = resolveSecret(entry.token, stored !== undefined);
    const record = (change: ProviderChange) => {
      pendingProviders[name] = change;
      tokensChanged = true;
    };
    if (token === 'missing') {
      errors[fieldPath.providerToken(name)] = strings.errSecretMissing;
    } else if (token.kind === 'new') {
      providerTokens[name] = token.value.trim();
      providers[name] = { host };
      record({ kind: 'token', host });
    } else if (token.kind === 'keep') {
      if (hostChanged) {
        providers[name] = { host };
        // A token that still waits for the server must still be sent, now with the new host.
        record({ kind: pendingProviders[name]?.kind === 'token' ? 'token' : 'host', host });
      }
    } else if (stored !== undefined) {
      delete providers[name];
      delete providerTokens[name];
      record({ kind: 'remove' });
    }
  }

  const mcp: LocalMcp = { sse: [], shttp: [], stdio: [] };
  const apiKeys: Record<string, string> = {};
  const env: Record<string, Record<string, string>> = {};
  const credentialFields: Record<string, string> = {};
  const knownIds = new Set([...config.mcp.sse, ...config.mcp.shttp, ...config.mcp.stdio].map((e) => e.id));
  const held = secrets.credentialFields ?? {};
  /**
   * A URL or arg as typed, with the credentials it shows masked put back from Secret Storage, split
   * into what is stored plainly and what is secret. A mask that matches nothing held (the value was
   * never stored, or its place changed) is refused: sending the literal `[redacted]` would break it.
   */
  const plainField = (typed: string, key: string, entryId: string, path: string) => {
    // an arg is matched by what it shows, so removing or moving another arg keeps its credential
    const sameShown = Object.entries(held).find(
      ([heldKey, whole]) => heldKey.startsWith(`${entryId}:`) && maskCredentials(whole) === typed,
    );
    const whole = sameShown ? sameShown[1] : unmaskCredentials(typed, held[key]);
    if (carriesMask(whole)) errors[path] = strings.errSecretMissing;
    return storedField(whole, key, credentialFields);
  };
  const entryId = (id: string | null) => (id !== null && knownIds.has(id) ? id : newId());
  const keepApiKey = (id: string, input: SecretInput, path: string) => {
    const resolved = resolveSecret(input, secrets.apiKeys[id] !== undefined);
    if (resolved === 'missing') errors[path] = strings.errSecretMissing;
    else if (resolved.kind === 'keep') apiKeys[id] = secrets.apiKeys[id] ?? '';
    else if (resolved.kind === 'new') apiKeys[id] = resolved.value.trim();
  };

  draft.mcp.sse.forEach((entry, index) => {
    const id = entryId(entry.id);
    mcp.sse.push({
      id,
      url: plainField(entry.url.trim(), credentialKey.url(id), id, fieldPath.url('sse', index)),
    });
    keepApiKey(id, entry.apiKey, fieldPath.apiKey('sse', index));
  });
  draft.mcp.shttp.forEach((entry, index) => {
    const id = entryId(entry.id);
    const timeout = parseTimeout(entry.timeout);
    mcp.shttp.push({
      id,
      url: plainField(entry.url.trim(), credentialKey.url(id), id, fieldPath.url('shttp', index)),
      timeout: timeout === 'invalid' ? null : timeout,
    });
    keepApiKey(id, entry.apiKey, fieldPath.apiKey('shttp', index));
  });
  draft.mcp.stdio.forEach((entry, index) => {
    const id = entryId(entry.id);
    const previous = config.mcp.stdio.find((stdio) => stdio.id === id);
    const knownRows = new Set(previous?.env.map((row) => row.id) ?? []);
    const values: Record<string, string> = {};
    const rows = entry.env.map((row, envIndex) => {
      const rowId = row.id !== null && knownRows.has(row.id) ? row.id : newId();
      const storedValue = secrets.env[id]?.[rowId];
      const resolved = resolveSecret(row.value, storedValue !== undefined);
      if (resolved === 'missing') errors[fieldPath.envValue(index, envIndex)] = strings.errSecretMissing;
      else if (resolved.kind === 'keep') values[rowId] = storedValue ?? '';
      else if (resolved.kind === 'new') values[rowId] = resolved.value;
      return { id: rowId, name: row.name.trim() };
    });
    mcp.stdio.push({
      id,
      name: entry.name.trim(),
      command: entry.command.trim(),
      args: entry.args.map((arg, argIndex) =>
        plainField(arg, credentialKey.arg(id, argIndex), id, fieldPath.arg(index, argIndex)),
      ),
      env: rows,
    });
    if (Object.keys(values).length > 0) env[id] = values;
  });

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const nextSecrets: LocalSecrets = {
    providers: providerTokens,
    apiKeys,
    env,
    ...(Object.keys(credentialFields).length > 0 ? { credentialFields } : {}),
  };
  const mcpChanged =
    JSON.stringify(buildMcpConfig(config.mcp, secrets)) !== JSON.stringify(buildMcpConfig(mcp, nextSecrets));
  return {
    ok: true,
    config: {
      ...config,
      providers,
      mcp,
      pending: { providers: pendingProviders, mcp: config.pending.mcp || mcpChanged },
    },
    secrets: nextSecrets,
    changed: { tokens: tokensChanged, mcp: mcpChanged },
  };
}
