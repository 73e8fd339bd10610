/**
 * Reading the server for the form, and saving a draft to it. A save reads the server first (what it
 * holds decides what to send), then stores each part that changed and reports each on its own:
 * 1. `POST /api/add-git-providers` with every provider (and, before 1.11, the MCP config);
 * 2. the settings read back: older servers ignore `mcp_config` on that call, so when it did not
 *    persist, `POST /api/settings` with only `mcp_config` stores it (the server merges what is posted
 *    into what it has). OpenHands 1.11 (settings under `/api/v1`, the client picks the routes) takes
 *    MCP servers only as `agent_settings_diff.mcp_config`, a map by name.
 * Secret Storage is written only for the parts the server accepted; nothing else is kept locally.
 */
import { isApiError, scrubSecrets, type McpConfig, type OpenHandsClient, type Settings } from '../../../api';
import { secretsIn } from '../../../api/redact';
import type { FieldErrors, FormDraft, FormModel } from '../shared/formSchema';
import { fieldPath } from '../shared/fieldPath';
import type { PartOutcome, SaveOutcome } from '../shared/saveOutcome';
import { format, type UiStrings } from '../shared/uiStrings';
import { validateDraft } from '../shared/validation';
import type { FormSecrets, FormStorage } from './formStorage';
import { resolveDraft } from './resolveDraft';
import { formModel, readServerForm, type ServerForm } from './serverForm';
import { mcpServerMap, serverMcpOf } from './serverMcpMap';
import {
  concernsMcpConfig,
  concernsProviderTokens,
  describeError,
  rejectedTokenProvider,
  validationFieldErrors,
} from './serverErrors';
import { mcpConfigEquals, mcpConfigStored } from './mcpCompare';

export type SettingsClient = Pick<OpenHandsClient, 'getSettings' | 'storeProviderTokens' | 'storeSettings'>;

export interface FormLog {
  info(message: string): void;
  warn(message: string): void;
}

/** The server's state for the form: a model, or why there is none. */
export interface Loaded {
  model: FormModel | null;
  loadProblem: string | null;
}

export type SaveResult =
  | { kind: 'invalid'; errors: FieldErrors }
  /** The check of the MCP servers said to stop: nothing was sent. */
  | { kind: 'cancelled' }
  | ({ kind: 'saved'; outcome: SaveOutcome; fieldErrors: FieldErrors } & Loaded);

/** A remote MCP server a save adds or changes, as it would be sent (secrets filled in). */
export interface ChangedRemote {
  kind: 'sse' | 'shttp';
  /** Its place in the draft's list of that kind. */
  index: number;
  url: string;
  apiKey: string | null;
}

/**
 * Asked before anything is written when the save adds or changes SSE or streamable HTTP servers:
 * resolves whether to go on. (The MCP check: OpenHands 1.11 fails every conversation start while
 * one it cannot reach is configured.)
 */
export type BeforeMcpWrite = (changed: ChangedRemote[]) => Promise<boolean>;

export class FormSave {
  constructor(
    private readonly storage: FormStorage,
    private readonly log: FormLog,
    private readonly strings: UiStrings,
  ) {}

  async load(serverUrl: string, client: SettingsClient | undefined): Promise<Loaded> {
    if (!client) return { model: null, loadProblem: null };
    const stored = await this.storage.load(serverUrl);
    try {
      const settings = await client.getSettings();
      return { model: formModel(serverUrl, readServerForm(settings, stored)), loadProblem: null };
    } catch (error) {
      const problem = this.describe(error, stored);
      this.log.warn(`MCP & Git Providers: could not read the server's settings: ${problem}`);
      return { model: null, loadProblem: problem };
    }
  }

  async save(
    serverUrl: string,
    draft: FormDraft,
    client: SettingsClient | undefined,
    beforeMcpWrite?: BeforeMcpWrite,
  ): Promise<SaveResult> {
    const strings = this.strings;
    if (draft.serverUrl !== serverUrl) return { kind: 'invalid', errors: { form: strings.errServerChanged } };
    if (!client) return { kind: 'invalid', errors: { form: strings.noServer } };
    const errors = validateDraft(draft, strings);
    if (Object.keys(errors).length > 0) return { kind: 'invalid', errors };
    const stored = await this.storage.load(serverUrl);

    // What the server has now decides what to send (every provider it reports, the keys it hides).
    let before: Settings;
    try {
      before = await client.getSettings();
    } catch (error) {
      const missing = isApiError(error) && error.kind === 'not_found';
      const message = missing ? strings.errNoSettings : this.describe(error, stored);
      const failed: PartOutcome = { status: 'failed', message };
      // nothing was sent: no new state to show (the webview keeps its draft), and no read-back problem
      return this.finish(serverUrl, { tokens: failed, mcp: failed }, {}, null, null);
    }
    const server = readServerForm(before, stored);
    const resolved = resolveDraft(draft, server, stored.providers, strings);
    if (!resolved.ok) return { kind: 'invalid', errors: resolved.errors };
    const { providerTokens, tokensChanged, mcp: desired, mcpChanged } = resolved.draft;
    const { secrets: kept } = resolved.draft;
    if (mcpChanged && beforeMcpWrite) {
      const changed = changedRemotes(draft, desired, server);
      if (changed.length > 0 && !(await beforeMcpWrite(changed))) return { kind: 'cancelled' };
    }
    const sent = [
      ...secretsOf(stored),
      ...secretsOf({ providers: kept.providers, ...kept.mcp }),
      ...[...(desired.sse_servers ?? []), ...(desired.shttp_servers ?? [])].flatMap((s) => secretsIn(s.url)),
      ...(desired.stdio_servers ?? []).flatMap((s) => (s.args ?? []).flatMap((arg) => secretsIn(arg))),
    ];
    const scrub = (text: string) => scrubSecrets(text, sent);
    const describe = (error: unknown) => describeError(error, scrub);
    const envNames = (index: number) => draft.mcp.stdio[index]?.env.map((row) => row.name.trim()) ?? [];
    const fieldErrors: FieldErrors = {};

    // 1. Providers (and, before 1.11, the MCP config, which a newer server may keep from this call).
    let tokens: PartOutcome = { status: 'unchanged' };
    let mcp: PartOutcome | undefined = mcpChanged ? undefined : { status: 'unchanged' };
    if (tokensChanged || (mcpChanged && !server.isV1)) {
      try {
        await client.storeProviderTokens({
          provider_tokens: providerTokens,
          mcp_config: mcpChanged && !server.isV1 ? desired : null,
        });
        if (tokensChanged) tokens = { status: 'synced' };
      } catch (error) {
        const message = describe(error);
        const rejected = rejectedTokenProvider(error);
        if (tokensChanged) tokens = { status: 'failed', message };
        if (rejected)
          fieldErrors[fieldPath.providerToken(rejected)] = format(strings.errTokenRejected, message);
        Object.assign(fieldErrors, validationFieldErrors(error, envNames, scrub));
        // A 422 on mcp_config, a session-key 401 or a server fault will refuse the settings write just the same.
        if (mcp === undefined && (concernsMcpConfig(error) || (!rejected && !concernsProviderTokens(error))))
          mcp = { status: 'failed', message };
      }
    }

    // 2. The MCP config: read back, and store through the settings when it did not persist.
    let latest: Settings | null = null;
    if (mcp === undefined) {
      try {
        const after = await client.getSettings();
        latest = after;
        const read = serverMcpOf(after);
        if (!read.secretsHidden && mcpConfigEquals(read.config, desired)) {
          mcp = { status: 'synced', via: 'add-git-providers' };
        } else {
          await client.storeSettings(
            read.secretsHidden
              ? { agent_settings_diff: { mcp_config: mcpServerMap(desired, server.remoteNames) } }
              : { mcp_config: desired },
          );
          // Accepted: saved, unless the read-back shows the server did not keep it. A read-back that
          // fails leaves it saved (the form then says it could not read the server back).
          latest = await client.getSettings().catch(() => null);
          const readBack = latest && serverMcpOf(latest);
          mcp =
            !readBack || mcpConfigStored(readBack.config, desired, readBack.secretsHidden)
              ? { status: 'synced', via: 'settings' }
              : { status: 'failed', message: strings.errMcpNotKept };
        }
      } catch (error) {
        mcp = { status: 'failed', message: describe(error) };
        Object.assign(fieldErrors, validationFieldErrors(error, envNames, scrub));
      }
    }

    // Secret Storage follows the server, part by part.
    const next: FormSecrets = {
      providers: tokens.status === 'synced' ? kept.providers : stored.providers,
      ...(mcp.status === 'synced' ? kept.mcp : { apiKeys: stored.apiKeys, env: stored.env }),
    };
    if (tokens.status === 'synced' || mcp.status === 'synced') await this.storage.save(serverUrl, next);
    if (!tokensChanged && !mcpChanged) return this.finish(serverUrl, { tokens, mcp }, fieldErrors, server);
    latest ??= await client.getSettings().catch(() => null);
    return this.finish(serverUrl, { tokens, mcp }, fieldErrors, latest && readServerForm(latest, next));
  }

  /** @param form what the server holds after the save; null when it could not be read back. */
  private finish(
    serverUrl: string,
    outcome: SaveOutcome,
    fieldErrors: FieldErrors,
    form: ServerForm | null,
    readBackProblem: string | null = this.strings.errReadBack,
  ): SaveResult {
    this.log.info(
      `MCP & Git Providers: save to ${serverUrl}: tokens ${describePart(outcome.tokens)}; MCP ${describePart(outcome.mcp)}.`,
    );
    return {
      kind: 'saved',
      outcome,
      fieldErrors,
      model: form && formModel(serverUrl, form),
      loadProblem: form ? null : readBackProblem,
    };
  }

  private describe(error: unknown, stored: FormSecrets): string {
    return describeError(error, (text) => scrubSecrets(text, secretsOf(stored)));
  }
}

/**
 * The SSE and streamable HTTP servers of the draft that are new, or whose URL or key the user changed
 * (an edited timeout alone does not count). `desired` lists them in the draft's order.
 */
function changedRemotes(draft: FormDraft, desired: McpConfig, server: ServerForm): ChangedRemote[] {
  const changed: ChangedRemote[] = [];
  for (const kind of ['sse', 'shttp'] as const) {
    const sent = (kind === 'sse' ? desired.sse_servers : desired.shttp_servers) ?? [];
    const held = kind === 'sse' ? server.sse : server.shttp;
    draft.mcp[kind].forEach((entry, index) => {
      const wire = sent[index];
      if (!wire) return;
      const before = entry.id === null ? undefined : held.find((h) => h.id === entry.id);
      const keyEdited = entry.apiKey.state === 'replace' || entry.apiKey.state === 'clear';
      if (before && before.url === wire.url && !keyEdited) return;
      changed.push({ kind, index, url: wire.url, apiKey: wire.api_key ?? null });
    });
  }
  return changed;
}

/** Every secret value held for a server, for scrubbing messages before they are shown or logged. */
function secretsOf(secrets: FormSecrets): string[] {
  return [
    ...Object.values(secrets.providers),
    ...Object.values(secrets.apiKeys),
    ...Object.values(secrets.env).flatMap((values) => Object.values(values)),
  ];
}

function describePart(part: PartOutcome): string {
  const via = part.via ? ` via ${part.via}` : '';
  return part.message ? `${part.status}${via} (${part.message})` : `${part.status}${via}`;
}
