/**
 * The webview's working copy of the form: the protocol draft plus what editing needs (a stable key
 * per row for rendering, and the stored status of each secret so "Cancel" can go back to it).
 */
import * as z from 'zod/mini';
import '../../../zodLocale';
import { maskCredentials } from '../shared/credentials';
import {
  FormProviderSchema,
  SecretInputSchema,
  SecretStatusSchema,
  type FormDraft,
  type FormModel,
  type SecretStatus,
} from '../shared/formSchema';

const key = z.string().check(z.maxLength(64));
const text = z.string().check(z.maxLength(4096));

export const SecretEditSchema = z.object({
  input: SecretInputSchema,
  /** What the host said is stored. */
  stored: SecretStatusSchema,
});
export const ProviderEditSchema = z.object({
  provider: FormProviderSchema,
  host: text,
  token: SecretEditSchema,
});
export const SseEditSchema = z.object({
  key,
  id: z.nullable(z.string()),
  url: text,
  apiKey: SecretEditSchema,
});
export const ShttpEditSchema = z.extend(SseEditSchema, { timeout: text });
export const ArgEditSchema = z.object({ key, value: text });
export const EnvEditSchema = z.object({
  key,
  id: z.nullable(z.string()),
  name: text,
  value: SecretEditSchema,
});
export const StdioEditSchema = z.object({
  key,
  id: z.nullable(z.string()),
  name: text,
  command: text,
  args: z.array(ArgEditSchema),
  env: z.array(EnvEditSchema),
});
export const EditorDraftSchema = z.object({
  serverUrl: text,
  providers: z.array(ProviderEditSchema),
  sse: z.array(SseEditSchema),
  shttp: z.array(ShttpEditSchema),
  stdio: z.array(StdioEditSchema),
});

export type SecretEdit = z.infer<typeof SecretEditSchema>;
export type ProviderEdit = z.infer<typeof ProviderEditSchema>;
export type SseEdit = z.infer<typeof SseEditSchema>;
export type ShttpEdit = z.infer<typeof ShttpEditSchema>;
export type ArgEdit = z.infer<typeof ArgEditSchema>;
export type EnvEdit = z.infer<typeof EnvEditSchema>;
export type StdioEdit = z.infer<typeof StdioEditSchema>;
export type EditorDraft = z.infer<typeof EditorDraftSchema>;

let counter = 0;
/** Row keys only need to be unique within this webview's life (and survive setState). */
export function newKey(): string {
  counter += 1;
  return `k${Date.now().toString(36)}${counter.toString(36)}`;
}

export function storedSecret(stored: SecretStatus): SecretEdit {
  return { input: { state: stored }, stored };
}

export function draftFromModel(model: FormModel): EditorDraft {
  return {
    serverUrl: model.serverUrl,
    providers: model.providers.map((provider) => ({
      provider: provider.provider,
      host: provider.host ?? '',
      token: storedSecret(provider.token),
    })),
    sse: model.mcp.sse.map((entry) => ({
      key: newKey(),
      id: entry.id,
      url: entry.url,
      apiKey: storedSecret(entry.apiKey),
    })),
    shttp: model.mcp.shttp.map((entry) => ({
      key: newKey(),
      id: entry.id,
      url: entry.url,
      apiKey: storedSecret(entry.apiKey),
      timeout: entry.timeout === null ? '' : String(entry.timeout),
    })),
    stdio: model.mcp.stdio.map((entry) => ({
      key: newKey(),
      id: entry.id,
      name: entry.name,
      command: entry.command,
      args: entry.args.map((value) => ({ key: newKey(), value })),
      env: entry.env.map((row) => ({
        key: newKey(),
        id: row.id,
        name: row.name,
        value: storedSecret(row.value),
      })),
    })),
  };
}

export function toProtocolDraft(draft: EditorDraft): FormDraft {
  return {
    serverUrl: draft.serverUrl,
    providers: draft.providers.map((p) => ({ provider: p.provider, host: p.host, token: p.token.input })),
    mcp: {
      sse: draft.sse.map((e) => ({ id: e.id, url: e.url, apiKey: e.apiKey.input })),
      shttp: draft.shttp.map((e) => ({ id: e.id, url: e.url, apiKey: e.apiKey.input, timeout: e.timeout })),
      stdio: draft.stdio.map((e) => ({
        id: e.id,
        name: e.name,
        command: e.command,
        args: e.args.map((arg) => arg.value),
        env: e.env.map((row) => ({ id: row.id, name: row.name, value: row.value.input })),
      })),
    },
  };
}

/** For `vscode.setState`: typed secrets blanked, credentials in URLs and args masked (see `credentials.ts`). */
export function withoutSecrets(draft: EditorDraft): EditorDraft {
  const blank = (edit: SecretEdit): SecretEdit =>
    edit.input.state === 'replace' ? { ...edit, input: { state: 'replace', value: '' } } : edit;
  return {
    ...draft,
    providers: draft.providers.map((p) => ({ ...p, token: blank(p.token) })),
    sse: draft.sse.map((e) => ({ ...e, url: maskCredentials(e.url), apiKey: blank(e.apiKey) })),
    shttp: draft.shttp.map((e) => ({ ...e, url: maskCredentials(e.url), apiKey: blank(e.apiKey) })),
    stdio: draft.stdio.map((e) => ({
      ...e,
      args: e.args.map((arg) => ({ ...arg, value: maskCredentials(arg.value) })),
      env: e.env.map((row) => ({ ...row, value: blank(row.value) })),
    })),
  };
}

/** Identifies what a draft was started from, to notice when the stored state moved underneath it. */
export function baselineOf(model: FormModel): string {
  return JSON.stringify({
    serverUrl: model.serverUrl,
    providers: model.providers.map((p) => [p.provider, p.host, p.token]),
    mcp: model.mcp,
  });
}
