/** The secret-free model the webview renders, derived from what is stored locally and what the server said. */
import type { FormModel, SecretStatus } from '../shared/formSchema';
import type { LocalConfig, LocalSecrets } from './localState';
import { shownProviders } from '../shared/providers';

/** `provider_tokens_set` as last read from the server, or null when it could not be read. */
export type ServerProviders = Record<string, string | null> | null;

export function buildFormModel(
  serverUrl: string,
  config: LocalConfig,
  secrets: LocalSecrets,
  serverProviders: ServerProviders,
): FormModel {
  const known = [
    ...Object.keys(config.providers),
    ...Object.keys(config.pending.providers),
    ...Object.keys(serverProviders ?? {}),
  ];
  return {
    serverUrl,
    providers: shownProviders(known).map((provider) => ({
      provider,
      host: config.providers[provider]?.host ?? null,
      token: status(config.providers[provider] !== undefined),
      server: serverProviders
        ? { set: provider in serverProviders, host: serverProviders[provider] ?? null }
        : null,
      pending: config.pending.providers[provider] !== undefined,
    })),
    mcp: {
      sse: config.mcp.sse.map((entry) => ({
        id: entry.id,
        url: entry.url,
        apiKey: status(secrets.apiKeys[entry.id] !== undefined),
      })),
      shttp: config.mcp.shttp.map((entry) => ({
        id: entry.id,
        url: entry.url,
        apiKey: status(secrets.apiKeys[entry.id] !== undefined),
        timeout: entry.timeout,
      })),
      stdio: config.mcp.stdio.map((entry) => ({
        id: entry.id,
        name: entry.name,
        command: entry.command,
        args: [...entry.args],
        env: entry.env.map((row) => ({
          id: row.id,
          name: row.name,
          value: status(secrets.env[entry.id]?.[row.id] !== undefined),
        })),
      })),
    },
  };
}

function status(present: boolean): SecretStatus {
  return present ? 'set' : 'unset';
}
