import * as vscode from 'vscode';
import { messageOf, type SandboxInfo, type SandboxSpecInfo } from '../api';
import type { Connection } from '../state/connection';
import { shortSpec, vscodeUrl } from '../state/names';
import type { SandboxActions } from '../state/sandboxActions';
import type { SpecCatalog } from '../state/specCatalog';
import type { OpenHandsStore } from '../state/store';
import type { Log } from '../core/log';
import { reportAction } from '../views/actionReports';
import { describeConversations, resolveSandbox, type CommandTarget } from './targets';

export interface SandboxCommandDeps {
  store: OpenHandsStore;
  connection: Connection;
  actions: SandboxActions;
  specs: SpecCatalog;
  log: Log;
}

const notBusy = (store: OpenHandsStore) => (sandbox: SandboxInfo) => !store.transitions.has(sandbox.id);

export function registerSandboxCommands({
  store,
  connection,
  actions,
  specs,
  log,
}: SandboxCommandDeps): vscode.Disposable[] {
  const idle = notBusy(store);
  // a retry asks nothing again: the user already decided once
  const pause = (sandbox: SandboxInfo): Promise<boolean> =>
    reportAction(
      () => actions.pause(sandbox),
      log,
      () => pause(sandbox),
    );
  const resume = (sandbox: SandboxInfo): Promise<boolean> =>
    reportAction(
      () => actions.resume(sandbox),
      log,
      () => resume(sandbox),
    );
  const remove = (sandbox: SandboxInfo): Promise<boolean> =>
    reportAction(
      () => actions.delete(sandbox),
      log,
      () => remove(sandbox),
    );
  return [
    vscode.commands.registerCommand('openhands.pauseSandbox', async (target: CommandTarget) => {
      const sandbox = await resolveSandbox(target, store, connection, {
        title: vscode.l10n.t('Pause Sandbox'),
        eligible: (s) => idle(s) && (s.status === 'RUNNING' || s.status === 'STARTING'),
        none: vscode.l10n.t('No running sandbox to pause.'),
      });
      if (!sandbox) return false;
      // as for delete, an id argument means the caller already decided
      if (typeof target !== 'string' && !(await confirmPauseOfWorkingAgents(sandbox, store))) return false;
      return pause(sandbox);
    }),
    vscode.commands.registerCommand('openhands.resumeSandbox', async (target: CommandTarget) => {
      const sandbox = await resolveSandbox(target, store, connection, {
        title: vscode.l10n.t('Resume Sandbox'),
        eligible: (s) => idle(s) && (s.status === 'PAUSED' || s.status === 'ERROR'),
        none: vscode.l10n.t('No paused sandbox to resume.'),
      });
      return sandbox ? resume(sandbox) : false;
    }),
    vscode.commands.registerCommand('openhands.deleteSandbox', async (target: CommandTarget) => {
      const sandbox = await resolveSandbox(target, store, connection, {
        title: vscode.l10n.t('Delete Sandbox'),
        eligible: idle,
        none: vscode.l10n.t('There is no sandbox to delete.'),
      });
      if (!sandbox) return false;
      // an id argument comes from a keybinding, link or extension that already decided: no prompt
      if (typeof target !== 'string' && !(await confirmDelete(sandbox, store))) return false;
      return remove(sandbox);
    }),
    // a spec id (keybindings, other extensions) picks the spec without asking
    vscode.commands.registerCommand('openhands.startSandbox', async (target?: string) => {
      const given = typeof target === 'string' ? target : undefined;
      const chosen = given ?? (await pickSpec(specs, store));
      if (chosen === null) return undefined;
      return start(chosen);
    }),
    vscode.commands.registerCommand('openhands.openSandboxVsCode', async (target: CommandTarget) => {
      const sandbox = await resolveSandbox(target, store, connection, {
        title: vscode.l10n.t('Open Sandbox in VS Code'),
        eligible: (s) => vscodeUrl(s) !== undefined,
        none: vscode.l10n.t('No running sandbox has a VS Code to open.'),
      });
      const url = sandbox && vscodeUrl(sandbox);
      if (!sandbox) return false;
      if (!url) {
        void vscode.window.showWarningMessage(
          vscode.l10n.t(
            'Sandbox “{0}” has no VS Code to open (it must be running).',
            store.sandboxName(sandbox.id),
          ),
        );
        return false;
      }
      return vscode.env.openExternal(vscode.Uri.parse(url, true));
    }),
    vscode.commands.registerCommand('openhands.copySandboxId', async (target: CommandTarget) => {
      const sandbox = await resolveSandbox(target, store, connection, {
        title: vscode.l10n.t('Copy Sandbox Id'),
        eligible: () => true,
        none: vscode.l10n.t('There are no sandboxes.'),
      });
      if (sandbox) await vscode.env.clipboard.writeText(sandbox.id);
      return sandbox?.id;
    }),
  ];

  async function start(specId: string | undefined): Promise<SandboxInfo | undefined> {
    let sandbox: SandboxInfo | undefined;
    await reportAction(
      async () => {
        const started = await actions.start(specId);
        sandbox = started.sandbox;
        return started.outcome;
      },
      log,
      () => start(specId),
    );
    return sandbox;
  }
}

/** Deleting removes the sandbox's workspace: say which conversations live there, and ask modally. */
async function confirmDelete(sandbox: SandboxInfo, store: OpenHandsStore): Promise<boolean> {
  const deleteLabel = vscode.l10n.t('Delete');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('Delete sandbox “{0}”?', store.sandboxName(sandbox.id)),
    { modal: true, detail: await hostedConversationsDetail(sandbox, store) },
    deleteLabel,
  );
  return choice === deleteLabel;
}

/** Names every conversation the sandbox hosts, not just the loaded ones; says so when it cannot. */
async function hostedConversationsDetail(sandbox: SandboxInfo, store: OpenHandsStore): Promise<string> {
  const irreversible = vscode.l10n.t('This cannot be undone.');
  try {
    const hosted = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Looking up its conversations…') },
      () => store.conversationsOfSandbox(sandbox.id),
    );
    if (hosted.items.length === 0 && hosted.complete) {
      return `${vscode.l10n.t('Its workspace is removed with it.')} ${irreversible}`;
    }
    const count = hosted.complete ? String(hosted.items.length) : `${hosted.items.length}+`;
    return `${vscode.l10n.t(
      'It hosts {0} conversation(s): {1}. Their workspace is removed with it.',
      count,
      describeConversations(hosted.items) ?? '…',
    )} ${irreversible}`;
  } catch (error) {
    const reason = messageOf(error);
    return `${vscode.l10n.t(
      'Could not list the conversations it hosts ({0}); any it hosts lose their workspace.',
      reason,
    )} ${irreversible}`;
  }
}

/**
 * Pausing stops the agents working in the sandbox until it is resumed: ask first when any is working.
 * Nothing to ask (no prompt at all) when none is, or when the list cannot be read (pausing is undoable).
 */
async function confirmPauseOfWorkingAgents(sandbox: SandboxInfo, store: OpenHandsStore): Promise<boolean> {
  const hosted = await store.conversationsOfSandbox(sandbox.id).catch(() => undefined);
  const working = hosted?.items.filter((conversation) => conversation.execution_status === 'running') ?? [];
  if (working.length === 0) return true;
  const pauseLabel = vscode.l10n.t('Pause');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('Pause sandbox “{0}” while its agents are working?', store.sandboxName(sandbox.id)),
    {
      modal: true,
      detail: vscode.l10n.t(
        '{0} conversation(s) are working in it: {1}. Their agents stop until the sandbox is resumed.',
        working.length,
        describeConversations(working) ?? '',
      ),
    },
    pauseLabel,
  );
  return choice === pauseLabel;
}

/**
 * The server's sandbox specs (images), one item each: the image's short name, the default marked,
 * how many sandboxes run it, and its full id in the detail. A spec id, undefined for "the server's
 * default", or null when the user cancelled or the specs could not be read (said in a message).
 */
async function pickSpec(catalog: SpecCatalog, store: OpenHandsStore): Promise<string | undefined | null> {
  let specs: SandboxSpecInfo[];
  try {
    // read afresh: an administrator may have changed them
    specs = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Reading the sandbox images…') },
      () => catalog.reload(),
    );
  } catch (error) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('Could not read the sandbox images the server offers: {0}', messageOf(error)),
    );
    return null;
  }
  if (specs.length <= 1) return specs[0]?.id;
  const chosen = await vscode.window.showQuickPick(
    specs.map((spec, index) => {
      const count = store.sandboxes.filter((sandbox) => sandbox.sandbox_spec_id === spec.id).length;
      const description = [
        index === 0 ? vscode.l10n.t('default') : undefined,
        count ? vscode.l10n.t('{0} sandbox(es) from it', count) : undefined,
      ].filter(Boolean);
      return {
        label: shortSpec(spec.id),
        description: description.join(' · ') || undefined,
        detail: spec.id,
        id: spec.id,
      };
    }),
    {
      title: vscode.l10n.t('Start Sandbox'),
      placeHolder: vscode.l10n.t('Choose the image the sandbox starts from'),
      matchOnDetail: true,
    },
  );
  return chosen ? chosen.id : null;
}
