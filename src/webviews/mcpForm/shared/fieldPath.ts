/**
 * Names of the form's fields, shared by validation (where an error belongs), the webview (where it
 * is shown) and the mapping of the server's 422 `loc` (which uses the request's list positions,
 * the same order as the form's).
 */
import type { FormProvider } from './providers';

export type McpKind = 'sse' | 'shttp' | 'stdio';

export const fieldPath = {
  form: 'form',
  providerToken: (provider: FormProvider | string) => `providers.${provider}.token`,
  providerHost: (provider: FormProvider | string) => `providers.${provider}.host`,
  url: (kind: 'sse' | 'shttp', index: number) => `mcp.${kind}.${index}.url`,
  apiKey: (kind: 'sse' | 'shttp', index: number) => `mcp.${kind}.${index}.apiKey`,
  timeout: (index: number) => `mcp.shttp.${index}.timeout`,
  name: (index: number) => `mcp.stdio.${index}.name`,
  command: (index: number) => `mcp.stdio.${index}.command`,
  args: (index: number) => `mcp.stdio.${index}.args`,
  arg: (index: number, argIndex: number) => `mcp.stdio.${index}.args.${argIndex}`,
  env: (index: number) => `mcp.stdio.${index}.env`,
  envName: (index: number, envIndex: number) => `mcp.stdio.${index}.env.${envIndex}.name`,
  envValue: (index: number, envIndex: number) => `mcp.stdio.${index}.env.${envIndex}.value`,
} as const;

/** The DOM id of a field's input (paths contain dots, which ids may hold but selectors would not like). */
export function fieldDomId(path: string): string {
  return `f-${path.replace(/\./g, '-')}`;
}

/** The DOM id of the message element next to a field. */
export function errorDomId(path: string): string {
  return `${fieldDomId(path)}-error`;
}

const SERVER_LISTS: Record<string, McpKind> = {
  sse_servers: 'sse',
  shttp_servers: 'shttp',
  stdio_servers: 'stdio',
};

const SERVER_FIELDS: Record<string, string> = { url: 'url', api_key: 'apiKey', timeout: 'timeout' };

/**
 * Maps a FastAPI `loc` (e.g. `["body","mcp_config","sse_servers",0,"url"]`) to a field path, or
 * undefined when it names nothing the form shows. `envNames` resolves `env` keys to rows.
 */
export function fieldForServerLoc(
  loc: readonly (string | number)[],
  envNames: (stdioIndex: number) => readonly string[] = () => [],
): string | undefined {
  const parts = loc[0] === 'body' ? loc.slice(1) : loc;
  const [section, ...rest] = parts;
  if (section === 'provider_tokens') {
    const [provider, field] = rest;
    if (typeof provider !== 'string' || provider === '[key]') return undefined;
    if (field === 'host') return fieldPath.providerHost(provider);
    return field === '[key]' ? undefined : fieldPath.providerToken(provider);
  }
  if (section !== 'mcp_config') return undefined;
  const [list, index, field, sub] = rest;
  const kind = typeof list === 'string' ? SERVER_LISTS[list] : undefined;
  if (!kind || typeof index !== 'number') return undefined;
  if (kind === 'stdio') {
    if (field === 'name' || field === 'command') return `mcp.stdio.${index}.${field}`;
    if (field === 'args') return typeof sub === 'number' ? fieldPath.arg(index, sub) : fieldPath.args(index);
    if (field === 'env') {
      const row = typeof sub === 'string' ? envNames(index).indexOf(sub) : -1;
      return row >= 0 ? fieldPath.envName(index, row) : fieldPath.env(index);
    }
    return fieldPath.name(index);
  }
  const mapped = typeof field === 'string' ? SERVER_FIELDS[field] : undefined;
  if (mapped === 'timeout' && kind === 'shttp') return fieldPath.timeout(index);
  if (mapped === 'apiKey') return fieldPath.apiKey(kind, index);
  return fieldPath.url(kind, index);
}
