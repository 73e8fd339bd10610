// Builders for drafts and in-memory stores, so each test spells out only what it is about.
import assert from 'node:assert/strict';
import type {
  FormDraft,
  FormModel,
  SecretInput,
} from '../../../../../src/webviews/mcpForm/shared/formSchema';
import { FormSave, type SaveResult } from '../../../../../src/webviews/mcpForm/host/formSave';
import type { RecordedRequest } from '../../../../server';
import {
  emptyFormSecrets,
  type FormSecrets,
  type FormStorage,
} from '../../../../../src/webviews/mcpForm/host/formStorage';
import { draftFromModel, toProtocolDraft } from '../../../../../src/webviews/mcpForm/webview/editorDraft';
import { ENGLISH_STRINGS, type UiStrings } from '../../../../../src/webviews/mcpForm/shared/uiStrings';

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

/** The draft the webview sends for a form opened on `model` and saved without an edit. */
export function untouched(model: FormModel): FormDraft {
  return toProtocolDraft(draftFromModel(model));
}

/** Form storage in memory, JSON round-tripped like Secret Storage. */
export class MemoryFormStorage implements FormStorage {
  readonly stored = new Map<string, string>();
  saves = 0;

  async load(serverUrl: string): Promise<FormSecrets> {
    const raw = this.stored.get(serverUrl);
    return raw ? (JSON.parse(raw) as FormSecrets) : emptyFormSecrets();
  }

  async save(serverUrl: string, secrets: FormSecrets): Promise<void> {
    this.saves += 1;
    this.stored.set(serverUrl, JSON.stringify(secrets));
  }
}

/** A FormSave over fresh in-memory storage and log, for each test. */
export function freshFormSave(): { store: MemoryFormStorage; log: MemoryLog; form: FormSave } {
  const store = new MemoryFormStorage();
  const log = new MemoryLog();
  return { store, log, form: new FormSave(store, log, STRINGS) };
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

/** Every secret `fullDraft` types. */
export const FULL_DRAFT_SECRETS = ['ghp_valid_new', 'sse-key-1', 'http-key-2', 'env-secret-3'];

export function calls(requests: RecordedRequest[]): string[] {
  return requests.filter((r) => !r.path.startsWith('/__control')).map((r) => `${r.method} ${r.path}`);
}

export function saved(result: SaveResult): Extract<SaveResult, { kind: 'saved' }> {
  assert.equal(result.kind, 'saved', JSON.stringify(result));
  return result as Extract<SaveResult, { kind: 'saved' }>;
}

/** Fails when any of `secrets` appears in `value` (serialised). */
export function assertFreeOf(value: unknown, secrets: readonly string[], what: string): void {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  for (const secret of secrets) assert.ok(!text.includes(secret), `${what} holds ${secret}`);
}
