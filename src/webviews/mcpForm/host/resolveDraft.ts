/**
 * Turns a validated draft into what to send, against what the server holds right now. Each secret
 * input is resolved (keep, replace, clear) with the values held for the entry its id names, each
 * masked credential in a URL or argument is put back, and the result says which part changed.
 *
 * Providers: `add-git-providers` replaces the server's whole provider map: an omitted provider is
 * deleted, an empty token keeps the stored one (and takes the host sent, where `""` and `null` differ
 * and a changed host re-validates the stored token). So every provider the server reports is sent,
 * with an empty token and its host exactly as reported, unless the user changed or removed it.
 */
import type { McpConfig, ProviderToken } from '../../../api';
import { carriesMask, maskCredentials, unmaskCredentials } from '../shared/credentials';
import { fieldPath } from '../shared/fieldPath';
import type { FieldErrors, FormDraft, SecretInput } from '../shared/formSchema';
import type { UiStrings } from '../shared/uiStrings';
import { parseTimeout } from '../shared/validation';
import { entryId } from './entryIds';
import type { FormSecrets } from './formStorage';
import type { HeldRemote, HeldStdio, ServerForm } from './serverForm';

export interface ResolvedDraft {
  /** The `provider_tokens` body; `{}` removes every token. */
  providerTokens: Record<string, ProviderToken>;
  tokensChanged: boolean;
  /** The whole MCP config to store, secrets filled in. */
  mcp: McpConfig;
  mcpChanged: boolean;
  /** What Secret Storage holds once each part is saved. */
  secrets: { providers: FormSecrets['providers']; mcp: Pick<FormSecrets, 'apiKeys' | 'env'> };
}

export type ResolveResult = { ok: true; draft: ResolvedDraft } | { ok: false; errors: FieldErrors };

/** A kept secret that is not held; `serverOnly` when the server has one VS Code never saw. */
type Kept = { value: string } | 'none' | 'missing' | 'serverOnly';

/**
 * @param serverHasOne the server holds a value now. An `unset` for it means it gained one after the
 *   form opened (from another client): kept as it is, like a provider token set meanwhile.
 */
function resolveSecret(input: SecretInput, held: string | undefined, serverHasOne = false): Kept {
  if (input.state === 'replace') return { value: input.value };
  if (input.state === 'clear' || (input.state === 'unset' && !serverHasOne)) return 'none';
  if (held !== undefined) return { value: held };
  return serverHasOne ? 'serverOnly' : 'missing';
}

/** Stands for a key only the server holds, when telling whether the MCP part changed (never sent). */
const HELD_ON_SERVER = '\u0000held on the server';

export function resolveDraft(
  draft: FormDraft,
  server: ServerForm,
  storedTokens: Readonly<Record<string, string>>,
  strings: UiStrings,
): ResolveResult {
  const errors: FieldErrors = {};
  const missing = (path: string) => (errors[path] = strings.errSecretMissing);

  // ---- providers ----
  const providerTokens: Record<string, ProviderToken> = {};
  const tokens = { ...storedTokens };
  let tokensChanged = false;
  for (const [provider, host] of Object.entries(server.providers)) {
    providerTokens[provider] = { token: '', host };
  }
  for (const entry of draft.providers) {
    const name = entry.provider;
    const onServer = Object.hasOwn(server.providers, name);
    const serverHost = server.providers[name] ?? null;
    const typedHost = entry.host.trim();
    // Untouched means "exactly what the server reported", `null` and `""` included.
    const hostChanged = typedHost !== (serverHost ?? '');
    const host = hostChanged ? typedHost : serverHost;
    const token = entry.token;
    if (token.state === 'replace') {
      tokens[name] = token.value.trim();
      providerTokens[name] = { token: tokens[name], host };
      tokensChanged = true;
    } else if (token.state === 'set') {
      if (onServer) {
        providerTokens[name] = { token: '', host };
        tokensChanged ||= hostChanged;
      } else if (tokens[name]) {
        // The server lost it: send the one kept here.
        providerTokens[name] = { token: tokens[name], host };
        tokensChanged = true;
      } else missing(fieldPath.providerToken(name));
    } else if (token.state === 'clear' || !onServer) {
      // ('unset' for one the server has: it gained it after the form opened; leave it as it is)
      delete tokens[name];
      if (onServer) {
        delete providerTokens[name];
        tokensChanged = true;
      }
    }
  }

  // ---- MCP servers ----
  const apiKeys: FormSecrets['apiKeys'] = {};
  const env: FormSecrets['env'] = {};
  const serverOnlyKeys: string[] = [];
  /**
   * A URL or arg as typed, with each credential it shows masked put back from `wholes` (the entry's
   * values on the server): the one at the same place first, else another with the same mask not yet
   * used, so moving or removing an arg keeps each credential with its own arg.
   */
  const whole = (
    typed: string,
    wholes: readonly string[],
    path: string,
    at = 0,
    used = new Set<number>(),
  ) => {
    const same = (index: number) => !used.has(index) && maskCredentials(wholes[index] ?? '') === typed;
    const index = at < wholes.length && same(at) ? at : wholes.findIndex((_, other) => same(other));
    if (index >= 0) used.add(index);
    const value = index >= 0 ? (wholes[index] ?? typed) : unmaskCredentials(typed, wholes[at] ?? wholes[0]);
    // sending the literal mask would break the server's config
    if (carriesMask(value)) missing(path);
    return value;
  };
  const remote = (kind: 'sse' | 'shttp', held: readonly HeldRemote[]) =>
    draft.mcp[kind].map((entry, index) => {
      const before = held.find((e) => e.id === entry.id);
      const url = whole(entry.url.trim(), before ? [before.url] : [], fieldPath.url(kind, index));
      const path = fieldPath.apiKey(kind, index);
      const key = resolveSecret(entry.apiKey, before?.apiKey, before?.keyOnServer);
      if (key === 'missing') missing(path);
      if (key === 'serverOnly') serverOnlyKeys.push(path);
      const apiKey = typeof key === 'object' ? key.value.trim() : null;
      if (apiKey) apiKeys[entryId.remote(kind, url)] = apiKey;
      const timeout = 'timeout' in entry ? parseTimeout(entry.timeout) : null;
      const compared = key === 'serverOnly' ? HELD_ON_SERVER : apiKey;
      return { url, apiKey, compared, timeout: timeout === 'invalid' ? null : timeout };
    });
  const sse = remote('sse', server.sse);
  const shttp = remote('shttp', server.shttp);
  const stdio = draft.mcp.stdio.map((entry, index) => {
    const before: HeldStdio | undefined = server.stdio.find((e) => e.id === entry.id);
    const name = entry.name.trim();
    const values: Record<string, string> = {};
    entry.env.forEach((row, envIndex) => {
      const held = before?.env.find((e) => e.id === row.id)?.value;
      const value = resolveSecret(row.value, held);
      if (value === 'missing') missing(fieldPath.envValue(index, envIndex));
      values[row.name.trim()] = typeof value === 'object' ? value.value : '';
    });
    const command = entry.command.trim();
    env[entryId.stdio(name, command)] = values;
    const used = new Set<number>();
    return {
      name,
      command,
      args: entry.args.map((arg, argIndex) =>
        whole(arg, before?.args ?? [], fieldPath.arg(index, argIndex), argIndex, used),
      ),
      env: values,
    };
  });

  const config = (key: (server: { apiKey: string | null; compared: string | null }) => string | null) =>
    mcpConfig(
      sse.map((s) => ({ ...s, apiKey: key(s) })),
      shttp.map((s) => ({ ...s, apiKey: key(s) })),
      stdio,
    );
  const mcp = config((s) => s.apiKey);
  const mcpChanged = JSON.stringify(config((s) => s.compared)) !== JSON.stringify(heldConfig(server));
  // 1.11 replaces the whole map on save: sending these without their keys would drop them.
  if (mcpChanged) for (const path of serverOnlyKeys) errors[path] = strings.errServerOnlyKey;

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    draft: {
      providerTokens,
      tokensChanged,
      mcp,
      mcpChanged,
      secrets: { providers: tokens, mcp: { apiKeys, env } },
    },
  };
}

interface RemoteConfig {
  url: string;
  apiKey: string | null;
  timeout: number | null;
}

/** The three lists as sent. */
function mcpConfig(
  sse: readonly RemoteConfig[],
  shttp: readonly RemoteConfig[],
  stdio: NonNullable<McpConfig['stdio_servers']>,
): McpConfig {
  return {
    sse_servers: sse.map((s) => ({ url: s.url, api_key: s.apiKey })),
    shttp_servers: shttp.map((s) => ({
      url: s.url,
      api_key: s.apiKey,
      // Omitted rather than null, so the server applies its default.
      ...(s.timeout === null ? {} : { timeout: s.timeout }),
    })),
    stdio_servers: stdio,
  };
}

/** What the server holds, as `mcpConfig` builds it, to tell whether the MCP part changed. */
function heldConfig(server: ServerForm): McpConfig {
  const key = (s: HeldRemote) => s.apiKey ?? (s.keyOnServer ? HELD_ON_SERVER : null);
  return mcpConfig(
    server.sse.map((s) => ({ ...s, apiKey: key(s) })),
    server.shttp.map((s) => ({ ...s, apiKey: key(s) })),
    server.stdio.map((s) => ({
      name: s.name,
      command: s.command,
      args: s.args,
      env: Object.fromEntries(s.env.map((row) => [row.name, row.value ?? ''])),
    })),
  );
}
