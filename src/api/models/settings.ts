import { z } from 'zod';
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

/** Body of `POST /api/add-git-providers`. */
export interface ProviderTokensRequest {
  provider_tokens?: Partial<Record<ProviderType, ProviderToken>>;
  mcp_config?: McpConfig | null;
}

// The server may send a bare URL string instead of an object for remote servers (legacy form).
const sseServer = z.union([
  z.string().transform((url): McpSseServer => ({ url })),
  z.looseObject({ url: z.string(), api_key: nullable(z.string()) }),
]);
const shttpServer = z.union([
  z.string().transform((url): McpShttpServer => ({ url })),
  z.looseObject({ url: z.string(), api_key: nullable(z.string()), timeout: nullable(z.number()) }),
]);
// `args` may be a shell string and `env` a "K=V,K2=V2" string on older configs.
const stdioServer = z.looseObject({
  name: z.string(),
  command: z.string(),
  args: z
    .union([z.array(z.string()), z.string().transform((line) => line.split(/\s+/).filter(Boolean))])
    .default([]),
  env: z
    .union([
      z.record(z.string(), z.string()),
      z.string().transform((line) =>
        Object.fromEntries(
          line
            .split(',')
            .filter((pair) => pair.includes('='))
            .map((pair) => [pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1)]),
        ),
      ),
    ])
    .default({}),
});

export const McpConfigSchema = z.looseObject({
  sse_servers: z.array(sseServer).default([]),
  stdio_servers: z.array(stdioServer).default([]),
  shttp_servers: z.array(shttpServer).default([]),
});
export type StoredMcpConfig = z.infer<typeof McpConfigSchema>;

/**
 * `GET /api/settings`. Only the fields this extension reads are typed; the rest is kept so a
 * read-modify-write of `POST /api/settings` sends back exactly what it read.
 */
export const SettingsSchema = z.looseObject({
  llm_model: nullable(z.string()),
  llm_base_url: nullable(z.string()),
  language: nullable(z.string()),
  mcp_config: McpConfigSchema.nullable().default(null),
  /** Provider → host (null for the default host), for providers that have a token stored. */
  provider_tokens_set: z.record(z.string(), z.string().nullable()).nullable().default(null),
  llm_api_key_set: z.boolean().optional(),
  search_api_key_set: z.boolean().optional(),
});
export type Settings = z.infer<typeof SettingsSchema>;
