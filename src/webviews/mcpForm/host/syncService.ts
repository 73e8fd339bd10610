/**
 * Save = store locally, then sync. The local save never depends on the server; the sync pushes
 * whatever is pending and reports each part (tokens, MCP) on its own:
 * 1. `GET /api/settings` for the providers the server has (so none is dropped by the request);
 * 2. `POST /api/add-git-providers` with every provider and, if it changed, the MCP config;
 * 3. `GET /api/settings` again: the real server ignores `mcp_config` on that endpoint, so when it
 *    did not persist, `POST /api/settings` with only `mcp_config` stores it (the server merges what
 *    is posted into what it has; nothing else the form does not own is sent back). OpenHands 1.11
 *    (settings under `/api/v1`, the client picks the routes) takes MCP servers only as
 *    `agent_settings_diff.mcp_config`, a map by name, and reads them back without their secrets.
 */
import { isApiError, scrubSecrets, type OpenHandsClient, type Settings } from '../../../api';
import { applyDraft } from './applyDraft';
import { fieldPath } from '../shared/fieldPath';
import type { FieldErrors, FormDraft } from '../shared/formSchema';
import type { FormStorage, LocalState } from './formStorage';
import type { ServerProviders } from './formModel';
import { importServerState } from './importServerState';
import { mcpServerMap, serverMcpOf, serverOnlyKeyFields } from './serverMcpMap';
import { hasPendingTokens, secretValues, type LocalConfig } from './localState';
import {
  concernsMcpConfig,
  concernsProviderTokens,
  describeError,
  isUnreachable,
  rejectedTokenProvider,
  validationFieldErrors,
} from './serverErrors';
import type { PartOutcome, SyncOutcome } from '../shared/syncOutcome';
import { buildMcpConfig, mcpConfigEquals, mcpConfigStored, planProviderTokens } from './syncPlan';
import { format, type UiStrings } from '../shared/uiStrings';
import { validateDraft } from '../shared/validation';

export type SettingsClient = Pick<OpenHandsClient, 'getSettings' | 'storeProviderTokens' | 'storeSettings'>;

export interface SyncLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface LoadResult extends LocalState {
  serverProviders: ServerProviders;
  /** Why the server could not be read, secret-free; null when it was. */
  loadProblem: string | null;
}

export interface SyncResult extends LocalState {
  outcome: SyncOutcome;
  /** Server refusals placed on the fields they concern. */
  fieldErrors: FieldErrors;
  serverProviders: ServerProviders;
}

export type SaveResult = { kind: 'invalid'; errors: FieldErrors } | ({ kind: 'saved' } & SyncResult);

export class SyncService {
  constructor(
    private readonly store: FormStorage,
    private readonly log: SyncLog,
    private readonly strings: () => UiStrings,
    private readonly newId: () => string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** What is stored locally, as is. */
  readLocal(serverUrl: string): Promise<LocalState> {
    return this.store.load(serverUrl);
  }

  /** Local state, refreshed from the server for every part without a pending change. */
  async load(serverUrl: string, client: SettingsClient | undefined): Promise<LoadResult> {
    const local = await this.store.load(serverUrl);
    if (!client) return { ...local, serverProviders: null, loadProblem: null };
    try {
      const settings = await client.getSettings();
      const next = this.refreshed(local, settings);
      await this.store.save(serverUrl, next);
      return { ...next, serverProviders: settings.provider_tokens_set ?? {}, loadProblem: null };
    } catch (error) {
      const problem = this.describe(error, local);
      this.log.warn(`MCP & Git Providers: could not read the server's settings: ${problem}`);
      return { ...local, serverProviders: null, loadProblem: problem };
    }
  }

  /** Validates, stores locally (only when valid), then syncs. */
  async save(serverUrl: string, draft: FormDraft, client: SettingsClient | undefined): Promise<SaveResult> {
    const strings = this.strings();
    if (draft.serverUrl !== serverUrl) return { kind: 'invalid', errors: { form: strings.errServerChanged } };
    const errors = validateDraft(draft, strings);
    if (Object.keys(errors).length > 0) return { kind: 'invalid', errors };
    const local = await this.store.load(serverUrl);
    const applied = applyDraft(local.config, local.secrets, draft, strings, this.newId);
    if (!applied.ok) return { kind: 'invalid', errors: applied.errors };
    await this.store.save(serverUrl, { config: applied.config, secrets: applied.secrets });
    this.log.info(
      `MCP & Git Providers: saved locally for ${serverUrl} (tokens ${applied.changed.tokens ? 'changed' : 'unchanged'}, MCP ${applied.changed.mcp ? 'changed' : 'unchanged'}).`,
    );
    return { kind: 'saved', ...(await this.sync(serverUrl, client)) };
  }

  /** Pushes whatever is pending; also what "Retry Sync" runs. */
  async sync(serverUrl: string, client: SettingsClient | undefined): Promise<SyncResult> {
    const local = await this.store.load(serverUrl);
    const tokensPending = hasPendingTokens(local.config);
    const mcpPending = local.config.pending.mcp;
    if (!tokensPending && !mcpPending) {
      return this.finish(serverUrl, local, { tokens: unchanged(), mcp: unchanged() }, {}, null, false);
    }
    /** Stops before anything reached the server: every pending part reports the same reason. */
    const giveUp = (status: 'pending' | 'failed', message: string) =>
      this.finish(serverUrl, local, this.both(status, message, tokensPending, mcpPending), {}, null, false);
    if (!client) return giveUp('pending', this.strings().noServer);

    // 1. What the server has now: the request must carry every provider it reports.
    let before: Settings;
    try {
      before = await client.getSettings();
    } catch (error) {
      const missing = isApiError(error) && error.kind === 'not_found';
      const message = missing ? this.strings().errNoSettings : this.describe(error, local);
      return giveUp(isUnreachable(error) ? 'pending' : 'failed', message);
    }

    const desiredMcp = buildMcpConfig(local.config.mcp, local.secrets);
    const isV1 = before.agent_settings !== undefined;
    const plan = planProviderTokens(
      before.provider_tokens_set ?? {},
      local.config.pending.providers,
      local.secrets.providers,
    );
    const fieldErrors: FieldErrors = {};
    const envNames = (index: number) => local.config.mcp.stdio[index]?.env.map((row) => row.name) ?? [];
    const scrub = (text: string) => scrubSecrets(text, secretValues(local.secrets));

    // 2. Providers (and the MCP config, which a newer server may keep from this call).
    let tokens: PartOutcome;
    let mcp: PartOutcome | undefined;
    let providersAccepted = false;
    try {
      await client.storeProviderTokens({
        provider_tokens: plan.request,
        // 1.11 takes MCP servers only through its settings (and would ignore them here)
        mcp_config: mcpPending && !isV1 ? desiredMcp : null,
      });
      providersAccepted = true;
      if (plan.missingTokens.length > 0) {
        for (const provider of plan.missingTokens)
          fieldErrors[fieldPath.providerToken(provider)] = this.strings().errSecretMissing;
        tokens = { status: 'failed', message: this.strings().errSecretMissing };
      } else tokens = tokensPending ? { status: 'synced' } : unchanged();
    } catch (error) {
      const message = this.describe(error, local);
      if (isUnreachable(error)) return giveUp('pending', message);
      tokens = { status: 'failed', message };
      const rejected = rejectedTokenProvider(error);
      if (rejected)
        fieldErrors[fieldPath.providerToken(rejected)] = format(this.strings().errTokenRejected, message);
      Object.assign(fieldErrors, validationFieldErrors(error, envNames, scrub));
      if (concernsMcpConfig(error)) mcp = { status: 'failed', message };
      // A session-key 401 (or a server fault) will refuse the settings calls just the same.
      else if (!rejected && !concernsProviderTokens(error) && mcpPending) mcp = { status: 'failed', message };
    }

    // 3. The MCP config: read back, and store through /api/settings when it did not persist.
    let latest: Settings | null = null;
    if (mcpPending && mcp === undefined) {
      try {
        const after = await client.getSettings();
        latest = after;
        const read = serverMcpOf(after);
        const keysOnlyOnServer = read.secretsHidden ? serverOnlyKeyFields(read.config, desiredMcp) : [];
        if (keysOnlyOnServer.length > 0) {
          // the save replaces the server's whole map: sending these without their keys would drop them
          for (const path of keysOnlyOnServer) fieldErrors[path] = this.strings().errServerOnlyKey;
          mcp = { status: 'failed', message: this.strings().errServerOnlyKey };
        } else if (!read.secretsHidden && mcpConfigEquals(read.config, desiredMcp)) {
          mcp = { status: 'synced', via: 'add-git-providers' };
        } else {
          await client.storeSettings(
            read.secretsHidden
              ? { agent_settings_diff: { mcp_config: mcpServerMap(desiredMcp, read.remoteNames) } }
              : { mcp_config: desiredMcp },
          );
          const check = await client.getSettings();
          latest = check;
          const stored = serverMcpOf(check);
          mcp = mcpConfigStored(stored.config, desiredMcp, stored.secretsHidden)
            ? { status: 'synced', via: 'settings' }
            : { status: 'failed', message: this.strings().errMcpNotKept };
        }
      } catch (error) {
        const message = this.describe(error, local);
        mcp = { status: isUnreachable(error) ? 'pending' : 'failed', message };
        Object.assign(fieldErrors, validationFieldErrors(error, envNames, scrub));
      }
    }
    if (latest === null && providersAccepted) latest = await client.getSettings().catch(() => null);
    const parts = { tokens, mcp: mcp ?? unchanged() };
    return this.finish(serverUrl, local, parts, fieldErrors, latest, providersAccepted);
  }

  /**
   * Clears what the server accepted, refreshes from its latest state, stores and reports.
   * @param providersAccepted add-git-providers succeeded: every pending provider change was applied
   *   (a new token that had gone missing from Secret Storage can never be sent, so it is dropped too).
   */
  private async finish(
    serverUrl: string,
    local: LocalState,
    parts: { tokens: PartOutcome; mcp: PartOutcome },
    fieldErrors: FieldErrors,
    latest: Settings | null,
    providersAccepted: boolean,
  ): Promise<SyncResult> {
    const outcome: SyncOutcome = { at: this.now().toISOString(), ...parts };
    const config: LocalConfig = {
      ...local.config,
      pending: {
        providers: providersAccepted ? {} : local.config.pending.providers,
        mcp: parts.mcp.status === 'synced' ? false : local.config.pending.mcp,
      },
      lastOutcome: outcome,
    };
    let next: LocalState = { config, secrets: local.secrets };
    if (latest) next = this.refreshed(next, latest);
    await this.store.save(serverUrl, next);
    this.log.info(
      `MCP & Git Providers: sync with ${serverUrl}: tokens ${describePart(parts.tokens)}; MCP ${describePart(parts.mcp)}.`,
    );
    return {
      ...next,
      outcome,
      fieldErrors,
      serverProviders: latest ? (latest.provider_tokens_set ?? {}) : null,
    };
  }

  private refreshed(local: LocalState, settings: Settings): LocalState {
    const mcp = serverMcpOf(settings);
    return importServerState(
      local.config,
      local.secrets,
      {
        providerTokensSet: settings.provider_tokens_set ?? {},
        mcpConfig: mcp.config,
        mcpSecretsHidden: mcp.secretsHidden,
      },
      this.newId,
    );
  }

  private both(
    status: 'pending' | 'failed',
    message: string,
    tokensPending: boolean,
    mcpPending: boolean,
  ): { tokens: PartOutcome; mcp: PartOutcome } {
    return {
      tokens: tokensPending ? { status, message } : unchanged(),
      mcp: mcpPending ? { status, message } : unchanged(),
    };
  }

  private describe(error: unknown, local: LocalState): string {
    return describeError(error, (text) => scrubSecrets(text, secretValues(local.secrets)));
  }
}

function unchanged(): PartOutcome {
  return { status: 'unchanged' };
}

function describePart(part: PartOutcome): string {
  const via = part.via ? ` via ${part.via}` : '';
  return part.message ? `${part.status}${via} (${part.message})` : `${part.status}${via}`;
}
