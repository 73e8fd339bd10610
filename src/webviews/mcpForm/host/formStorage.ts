/**
 * The form's one local store: the secrets the user saved, per server URL, in Secret Storage. Nothing
 * else is kept; the form reads everything else from the server each time it opens.
 *
 * Why keep secrets at all: OpenHands 1.11 reads none back (api keys show only that one exists, env is
 * dropped whole), yet each MCP save replaces its whole list, so re-sending the servers the user kept
 * needs their keys and env from here. Env names are kept with their values for the same reason. A
 * provider token is kept so it can be sent again if the server lost it.
 */
import * as z from 'zod/mini';
import '../../../zodLocale';
import type { MementoManager } from '../../../core/mementoManager';
import type { ServerSecrets } from '../../../core/secretsManager';
import { entryId } from './entryIds';

export const FormSecretsSchema = z.object({
  /** Provider → token. */
  providers: z.record(z.string(), z.string()),
  /** Remote MCP server id (`entryId`) → its api key. */
  apiKeys: z.record(z.string(), z.string()),
  /** stdio server id → variable name → value ("" when the variable has no value). */
  env: z.record(z.string(), z.record(z.string(), z.string())),
});
export type FormSecrets = z.infer<typeof FormSecretsSchema>;

export function emptyFormSecrets(): FormSecrets {
  return { providers: {}, apiKeys: {}, env: {} };
}

/** The form's storage, per server URL (tests use one in memory). */
export interface FormStorage {
  load(serverUrl: string): Promise<FormSecrets>;
  save(serverUrl: string, secrets: FormSecrets): Promise<void>;
}

export class VscodeFormStorage implements FormStorage {
  constructor(
    private readonly secrets: ServerSecrets,
    private readonly mementos: Pick<MementoManager, 'earlierMcpForm' | 'clearEarlierMcpForm'>,
  ) {}

  async load(serverUrl: string): Promise<FormSecrets> {
    const json = jsonOf(await this.secrets.get(serverUrl));
    const parsed = FormSecretsSchema.safeParse(json);
    // Secrets in the earlier layout parse too (same keys): their ids simply match nothing.
    const stored = parsed.success ? parsed.data : emptyFormSecrets();
    const earlier = this.mementos.earlierMcpForm(serverUrl);
    if (earlier === undefined) return stored;
    // Builds before 0.1.0 kept a copy of the server in globalState and the secrets by random ids.
    // Moved once: what this build stored (a second window, a memento that outlived the move) stays.
    const thisLayout =
      typeof json === 'object' && json !== null && 'layout' in json && json.layout === LAYOUT;
    const moved = thisLayout ? stored : (fromEarlierLayout(earlier, json) ?? stored);
    await this.save(serverUrl, moved);
    await this.mementos.clearEarlierMcpForm(serverUrl);
    return moved;
  }

  async save(serverUrl: string, secrets: FormSecrets): Promise<void> {
    const empty = Object.values(secrets).every((part) => Object.keys(part).length === 0);
    if (empty) await this.secrets.clear(serverUrl);
    else await this.secrets.set(serverUrl, JSON.stringify({ ...secrets, layout: LAYOUT }));
  }

  async clear(serverUrl: string): Promise<void> {
    await this.secrets.clear(serverUrl);
    await this.mementos.clearEarlierMcpForm(serverUrl);
  }
}

/** Marks what this build writes, so the move from the earlier layout never runs over it. */
const LAYOUT = 2;

/** The stored JSON, or undefined when there is none or it does not parse. */
function jsonOf(raw: string | undefined): unknown {
  try {
    return raw === undefined ? undefined : (JSON.parse(raw) as unknown);
  } catch {
    return undefined;
  }
}

const EarlierConfigSchema = z.object({
  mcp: z.object({
    sse: z.array(z.object({ id: z.string(), url: z.string() })),
    shttp: z.array(z.object({ id: z.string(), url: z.string() })),
    stdio: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        command: z.string(),
        env: z.array(z.object({ id: z.string(), name: z.string() })),
      }),
    ),
  }),
});
const EarlierSecretsSchema = z.object({
  providers: z.record(z.string(), z.string()),
  apiKeys: z.record(z.string(), z.string()),
  env: z.record(z.string(), z.record(z.string(), z.string())),
  credentialFields: z.optional(z.record(z.string(), z.string())),
});

/** The earlier layout's secrets under today's ids; undefined when either half does not parse. */
function fromEarlierLayout(config: unknown, json: unknown): FormSecrets | undefined {
  const mcp = EarlierConfigSchema.safeParse(config);
  const parsed = EarlierSecretsSchema.safeParse(json);
  if (!mcp.success || !parsed.success) return undefined;
  const secrets = parsed.data;
  const next: FormSecrets = { providers: secrets.providers, apiKeys: {}, env: {} };
  for (const kind of ['sse', 'shttp'] as const) {
    for (const entry of mcp.data.mcp[kind]) {
      const key = secrets.apiKeys[entry.id];
      const url = secrets.credentialFields?.[`${entry.id}:url`] ?? entry.url;
      if (key !== undefined) next.apiKeys[entryId.remote(kind, url)] = key;
    }
  }
  for (const entry of mcp.data.mcp.stdio) {
    const values = secrets.env[entry.id] ?? {};
    next.env[entryId.stdio(entry.name, entry.command)] = Object.fromEntries(
      entry.env.map((row) => [row.name, values[row.id] ?? '']),
    );
  }
  return next;
}
