// Builders for drafts and local state, so each test spells out only what it is about.
import assert from 'node:assert/strict';
import type { FormDraft, SecretInput } from '../../../src/webviews/mcpForm/shared/formSchema';
import type { SaveResult } from '../../../src/webviews/mcpForm/host/syncService';
import type { RecordedRequest } from '../../server';
import type { FormStorage, LocalState } from '../../../src/webviews/mcpForm/host/formStorage';
import { emptyLocalConfig, emptyLocalSecrets } from '../../../src/webviews/mcpForm/host/localState';
import { ENGLISH_STRINGS, type UiStrings } from '../../../src/webviews/mcpForm/shared/uiStrings';

export const STRINGS: UiStrings = ENGLISH_STRINGS;
export const SERVER = 'http://127.0.0.1:9';

export const keep: SecretInput = { state: 'set' };
export const none: SecretInput = { state: 'unset' };
export const clear: SecretInput = { state: 'clear' };
export const replace = (value: string): SecretInput => ({ state: 'replace', value });

export function draft(
  overrides: Omit<Partial<FormDraft>, 'mcp'> & { mcp?: Partial<FormDraft['mcp']> } = {},
): FormDraft {
  return {
    serverUrl: overrides.serverUrl ?? SERVER,
    providers: overrides.providers ?? [
      { provider: 'github', host: '', token: none },
      { provider: 'gitlab', host: '', token: none },
      { provider: 'bitbucket', host: '', token: none },
    ],
    mcp: { sse: [], shttp: [], stdio: [], ...overrides.mcp },
  };
}

export function emptyState(): LocalState {
  return { config: emptyLocalConfig(), secrets: emptyLocalSecrets() };
}

/** Sequential ids, so expectations can name them. */
export function idSequence(prefix = 'id'): () => string {
  let next = 0;
  return () => `${prefix}${++next}`;
}

/** Form storage in memory, JSON round-tripped like the real storages. */
export class MemoryFormStorage implements FormStorage {
  readonly states = new Map<string, string>();
  saves = 0;

  async load(serverUrl: string): Promise<LocalState> {
    const raw = this.states.get(serverUrl);
    return raw ? (JSON.parse(raw) as LocalState) : emptyState();
  }

  async save(serverUrl: string, state: LocalState): Promise<void> {
    this.saves += 1;
    this.states.set(serverUrl, JSON.stringify(state));
  }
}

export class MemoryLog {
  readonly lines: string[] = [];
  info(message: string): void {
    this.lines.push(`info ${message}`);
  }
  warn(message: string): void {
    this.lines.push(`warn ${message}`);
  }
  error(message: string): void {
    this.lines.push(`error ${message}`);
  }
}

/** A form that adds a GitHub token and one MCP server of each kind. */
export function fullDraft(serverUrl: string): FormDraft {
  return draft({
    serverUrl,
    providers: [
      { provider: 'github', host: '', token: replace('ghp_valid_new') },
      { provider: 'gitlab', host: '', token: none },
      { provider: 'bitbucket', host: '', token: none },
    ],
    mcp: {
      sse: [{ id: null, url: 'https://sse.example.com/sse', apiKey: replace('sse-key-1') }],
      shttp: [
        { id: null, url: 'https://http.example.com/mcp', apiKey: replace('http-key-2'), timeout: '90' },
      ],
      stdio: [
        {
          id: null,
          name: 'fetch',
          command: 'uvx',
          args: ['mcp-server-fetch'],
          env: [{ id: null, name: 'TOKEN', value: replace('env-secret-3') }],
        },
      ],
    },
  });
}

export function calls(requests: RecordedRequest[]): string[] {
  return requests.filter((r) => !r.path.startsWith('/__control')).map((r) => `${r.method} ${r.path}`);
}

export function saved(result: SaveResult): Extract<SaveResult, { kind: 'saved' }> {
  assert.equal(result.kind, 'saved', JSON.stringify(result));
  return result as Extract<SaveResult, { kind: 'saved' }>;
}
