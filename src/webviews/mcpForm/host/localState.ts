/**
 * What the extension keeps per server URL. Two halves, stored apart:
 * - `LocalConfig` (globalState): everything that is not secret (URLs, names, commands, args, env
 *   names, hosts) and which changes still wait for the server;
 * - `LocalSecrets` (SecretStorage): provider tokens, MCP api keys and stdio env values, by entry id.
 * Both are parsed with zod on read, so a corrupt or older value degrades to "empty", never a crash.
 *
 * Why a local copy at all: the server never reads secrets back (tokens, MCP api keys, env values),
 * yet a save replaces its whole MCP config, so re-sending the servers the user kept needs their
 * secrets from here; and a change saved while the server is unreachable is not lost when the panel
 * closes. Everything else is refreshed from the server on every open.
 */
import * as z from 'zod/mini';
import '../../../zodLocale';
import { secretsIn } from '../../../api/redact';
import { maskCredentials } from '../shared/credentials';
import { SyncOutcomeSchema } from '../shared/syncOutcome';

const ProviderHostSchema = z.object({ host: z.nullable(z.string()) });

/** A provider change saved locally and not yet accepted by the server. */
export const ProviderChangeSchema = z.discriminatedUnion('kind', [
  /** A new token (in the vault), to be sent with `host`. */
  z.object({ kind: z.literal('token'), host: z.nullable(z.string()) }),
  /** Same token, new host. */
  z.object({ kind: z.literal('host'), host: z.nullable(z.string()) }),
  /** The user removed the provider: omit it from the request. */
  z.object({ kind: z.literal('remove') }),
]);
export type ProviderChange = z.infer<typeof ProviderChangeSchema>;

export const LocalSseSchema = z.object({ id: z.string(), url: z.string() });
export const LocalShttpSchema = z.object({
  id: z.string(),
  url: z.string(),
  timeout: z.nullable(z.number()),
});
export const LocalEnvSchema = z.object({ id: z.string(), name: z.string() });
export const LocalStdioSchema = z.object({
  id: z.string(),
  name: z.string(),
  command: z.string(),
  args: z.array(z.string()),
  env: z.array(LocalEnvSchema),
});
export type LocalSse = z.infer<typeof LocalSseSchema>;
export type LocalShttp = z.infer<typeof LocalShttpSchema>;
export type LocalStdio = z.infer<typeof LocalStdioSchema>;

export const LocalMcpSchema = z.object({
  sse: z.array(LocalSseSchema),
  shttp: z.array(LocalShttpSchema),
  stdio: z.array(LocalStdioSchema),
});
export type LocalMcp = z.infer<typeof LocalMcpSchema>;

export const LocalConfigSchema = z.object({
  version: z.literal(1),
  /** Providers that have a token (on the server or about to be), with the host to show and send. */
  providers: z.record(z.string(), ProviderHostSchema),
  mcp: LocalMcpSchema,
  pending: z.object({
    providers: z.record(z.string(), ProviderChangeSchema),
    mcp: z.boolean(),
  }),
  /** The outcome of the last save or retry, secret-free. */
  lastOutcome: z.catch(z.nullable(SyncOutcomeSchema), null),
});
export type LocalConfig = z.infer<typeof LocalConfigSchema>;

export const LocalSecretsSchema = z.object({
  providers: z.record(z.string(), z.string()),
  /** MCP entry id → its api key (SSE/HTTP) or env row id → value (stdio). */
  apiKeys: z.record(z.string(), z.string()),
  env: z.record(z.string(), z.record(z.string(), z.string())),
  /**
   * MCP URLs and stdio args that carry a credential, whole, by `credentialKey`; the config holds
   * them masked. Absent when there are none (and in state stored by earlier versions).
   */
  credentialFields: z.optional(z.record(z.string(), z.string())),
});
export type LocalSecrets = z.infer<typeof LocalSecretsSchema>;

export function emptyLocalConfig(): LocalConfig {
  return {
    version: 1,
    providers: {},
    mcp: { sse: [], shttp: [], stdio: [] },
    pending: { providers: {}, mcp: false },
    lastOutcome: null,
  };
}

export function emptyLocalSecrets(): LocalSecrets {
  return { providers: {}, apiKeys: {}, env: {} };
}

export function hasPendingTokens(config: LocalConfig): boolean {
  return Object.keys(config.pending.providers).length > 0;
}

/** Every secret value held for a server, for scrubbing messages before they are shown or logged. */
export function secretValues(secrets: LocalSecrets): string[] {
  return [
    ...Object.values(secrets.providers),
    ...Object.values(secrets.apiKeys),
    ...Object.values(secrets.env).flatMap((rows) => Object.values(rows)),
    // the credentials inside stored URLs and args (query values, `--token=` values)
    ...Object.values(secrets.credentialFields ?? {}).flatMap((field) => secretsIn(field)),
  ];
}

/** A plain field as stored (masked), and its whole value for Secret Storage when it carries a credential. */
export function storedField(whole: string, key: string, credentialFields: Record<string, string>): string {
  const masked = maskCredentials(whole);
  if (masked !== whole) credentialFields[key] = whole;
  return masked;
}
