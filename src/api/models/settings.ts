import * as z from 'zod/mini';
import { nullable } from './common';
import type { ProviderType } from './conversation';

export interface McpSseServer {
  url: string;
  api_key?: string | null;
}

export interface McpShttpServer {
  url: string;
  api_key?: string | null;
  /** Seconds, 1–3600; the server defaults to 60. */
  timeout?: number | null;
}

export interface McpStdioServer {
  name: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

export interface McpConfig {
  sse_servers?: McpSseServer[];
  stdio_servers?: McpStdioServer[];
  shttp_servers?: McpShttpServer[];
}

export interface ProviderToken {
  token?: string | null;
  host?: string | null;
  user_id?: string | null;
}

/** Body of `POST /api/add-git-providers` (before 1.11) and `POST /api/v1/secrets/git-providers` (1.11+). */
export interface ProviderTokensRequest {
  provider_tokens?: Partial<Record<ProviderType, ProviderToken>>;
  mcp_config?: McpConfig | null;
}

// The server may send a bare URL string instead of an object for remote servers (legacy form).
const sseServer = z.union([
  z.pipe(
    z.string(),
    z.transform((url: string): McpSseServer => ({ url })),
  ),
  z.looseObject({ url: z.string(), api_key: nullable(z.string()) }),
]);
const shttpServer = z.union([
  z.pipe(
    z.string(),
    z.transform((url: string): McpShttpServer => ({ url })),
  ),
  z.looseObject({ url: z.string(), api_key: nullable(z.string()), timeout: nullable(z.number()) }),
]);
// `args` may be a shell string and `env` a "K=V,K2=V2" string on older configs.
const stdioServer = z.looseObject({
  name: z.string(),
  command: z.string(),
  args: z._default(
    z.union([
      z.array(z.string()),
      z.pipe(
        z.string(),
        z.transform((line: string) => line.split(/\s+/).filter(Boolean)),
      ),
    ]),
    [],
  ),
  env: z._default(
    z.union([
      z.record(z.string(), z.string()),
      z.pipe(
        z.string(),
        z.transform((line: string) =>
          Object.fromEntries(
            line
              .split(',')
              .filter((pair) => pair.includes('='))
              .map((pair) => [pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1)]),
          ),
        ),
      ),
    ]),
    {},
  ),
});

export const McpConfigSchema = z.looseObject({
  sse_servers: z._default(z.array(sseServer), []),
  stdio_servers: z._default(z.array(stdioServer), []),
  shttp_servers: z._default(z.array(shttpServer), []),
});
export type StoredMcpConfig = z.infer<typeof McpConfigSchema>;

/**
 * One MCP server of OpenHands 1.11+ (`agent_settings.mcp_config`, a map from server name to this):
 * remote (`url`, `transport` "sse" / "streamable-http" / "http") or stdio (`command`). On read the
 * server leaves secrets out: `auth` keeps only its `strategy`, and `env` is dropped.
 */
export interface McpServerEntry {
  url?: string;
  transport?: string | null;
  timeout?: number | null;
  /** Write-only: the server stores it as `auth: {strategy: "api_key", value}`. */
  api_key?: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
}

const McpServerEntrySchema = z.looseObject({
  url: z.optional(z.string()),
  transport: nullable(z.string()),
  timeout: nullable(z.number()),
  /** `{"strategy": "api_key" | "bearer" | "header" | "oauth2", …}`, or absent when there is none. */
  auth: z.optional(z.unknown()),
  command: z.optional(z.string()),
  args: z._default(z.array(z.string()), []),
  env: z.optional(z.record(z.string(), z.string())),
});
export type StoredMcpServerEntry = z.infer<typeof McpServerEntrySchema>;

/** OpenHands 1.11+: what `GET /api/v1/settings` says of the agent (only what the form reads is typed). */
export const AgentSettingsSchema = z.looseObject({
  mcp_config: nullable(z.record(z.string(), McpServerEntrySchema)),
});

/**
 * `GET /api/settings` (before OpenHands 1.11) or `GET /api/v1/settings` (1.11+, with the MCP servers in
 * `agent_settings`). Only the fields this extension reads are typed; the rest is kept.
 */
export const SettingsSchema = z.looseObject({
  llm_model: nullable(z.string()),
  llm_base_url: nullable(z.string()),
  language: nullable(z.string()),
  /** Before 1.11. */
  mcp_config: nullable(McpConfigSchema),
  /** 1.11+. */
  agent_settings: z.optional(AgentSettingsSchema),
  /** Provider → host (null for the default host), for providers that have a token stored. */
  provider_tokens_set: nullable(z.record(z.string(), z.nullable(z.string()))),
  llm_api_key_set: z.optional(z.boolean()),
  search_api_key_set: z.optional(z.boolean()),
});
export type Settings = z.infer<typeof SettingsSchema>;
