// Connect to OpenHands…: choose Cloud, this machine or another server; the connection is tested
// before anything is saved, and every failure says what to do.
import * as vscode from 'vscode';
import { checkServerUrl, type AuthHeader } from '../../api';
import type { FlowNotice } from '../../core/flowNotice';
import type { Log } from '../../core/log';
import { isPlainHttpToAnotherHost } from '../../core/plainHttp';
import type { ApiKeys } from '../../core/secretsManager';
import {
  AUTH_HEADERS,
  defaultServerName,
  OPENHANDS_CLOUD_URL,
  readServers,
  rememberServer,
  sameServerUrl,
  type RememberedServer,
} from '../../core/servers';
import type { Connection } from '../../state/connection';
import { checkModel, needsModelSetup, type ModelCheck } from '../../state/modelCheck';
import type { ModelReadyContext } from '../../views/modelReadyContext';
import { setUpModelLink } from '../../views/modelOffer';
import { testKey, testServer, type ServerCandidate, type ServerTestResult } from '../../state/serverTest';
import { findLocalServer, LOCAL_PORTS, START_COMMAND, START_GUIDE, startLocalServer } from './localServer';
import { connectedText, problemText } from './serverWords';

export const CLOUD_KEYS_PAGE = `${OPENHANDS_CLOUD_URL}/settings/api-keys`;

export interface ConnectDeps {
  connection: Connection;
  keys: ApiKeys;
  log: Log;
  /** What connecting last said ("Connected to …", "… was forgotten"): the next says replaces it. */
  notice: FlowNotice;
  /** Told what the model check found, for the walkthrough's step. */
  modelReady: Pick<ModelReadyContext, 'report'>;
}

/** `openhands.connect` with an argument: no prompts, for links, scripts and tests. */
export interface ConnectRequest {
  url: string;
  name?: string;
  apiKey?: string;
  authHeader?: AuthHeader;
  caFile?: string;
  insecure?: boolean;
}

export interface ConnectResult {
  outcome: ServerTestResult['outcome'] | 'invalid-url';
  saved: boolean;
  message: string;
  /** Whether the saved server's agent has a model it can use (absent when nothing was saved). */
  model?: ModelCheck['readiness'];
}

/** Tests the server as given and saves it when the test passes; says what it found either way. */
export async function connectWith(deps: ConnectDeps, request: ConnectRequest): Promise<ConnectResult> {
  const check = checkServerUrl(request.url);
  if (!check.ok) return { outcome: 'invalid-url', saved: false, message: check.message };
  // an argument may come from a link or another extension: only a header the client knows
  const namedHeader = AUTH_HEADERS.find((header) => header === request.authHeader);
  const candidate: ServerCandidate = {
    url: check.url,
    authHeader:
      namedHeader ?? (sameServerUrl(check.url, OPENHANDS_CLOUD_URL) ? 'Authorization' : 'X-Session-API-Key'),
    apiKey: request.apiKey?.trim() || undefined,
    caFile: request.caFile,
    insecure: request.insecure,
  };
  if (
    candidate.apiKey &&
    isPlainHttpToAnotherHost(check.url) &&
    !deps.connection.plainHttp.allows(check.url)
  ) {
    const message = vscode.l10n.t(
      'The API key was not sent: it would travel unencrypted to {0}. Use https://, or connect from the command palette to confirm.',
      check.url,
    );
    return { outcome: 'needs-key', saved: false, message };
  }
  // without a header named, the key is tried in each until the server takes it
  const { result, authHeader } =
    candidate.apiKey && !namedHeader
      ? await testKey({ ...candidate, apiKey: candidate.apiKey }, testDeps(deps))
      : { result: await runTest(deps, candidate), authHeader: candidate.authHeader };
  const problem = problemText(check.url, result);
  if (problem) return { outcome: result.outcome, saved: false, message: problem };
  const name = request.name?.trim() || defaultServerName(check.url);
  await save(deps, serverOf({ ...candidate, authHeader }, name), candidate.apiKey);
  const model = await readModel(deps);
  return { outcome: 'ok', saved: true, message: connectedText(name, result, model), model: model.readiness };
}

/** The whole flow, asked step by step. Resolves true once a server is saved and shown. */
export async function connectInteractively(deps: ConnectDeps): Promise<boolean> {
  const choice = await pickWhere();
  if (!choice) return false;
  if (choice === 'cloud') return connectCloud(deps);
  if (choice === 'local') return connectLocal(deps);
  if (choice === 'other') return connectOther(deps);
  await switchTo(deps, choice);
  return true;
}

type Where = 'cloud' | 'local' | 'other' | RememberedServer;

async function pickWhere(): Promise<Where | undefined> {
  type Item = vscode.QuickPickItem & { where?: Where };
  const items: Item[] = [
    {
      label: `$(cloud) ${vscode.l10n.t('OpenHands Cloud')}`,
      description: 'app.all-hands.dev',
      detail: vscode.l10n.t('Sign in on the web, create an API key, paste it here.'),
      where: 'cloud',
    },
    {
      label: `$(vm) ${vscode.l10n.t('OpenHands on this machine')}`,
      description: LOCAL_PORTS.map((port) => `:${port}`).join(' '),
      detail: vscode.l10n.t('Finds a running OpenHands, or helps you start one.'),
      where: 'local',
    },
    {
      label: `$(globe) ${vscode.l10n.t('Another server…')}`,
      detail: vscode.l10n.t("Your team's OpenHands, or one on another machine: enter its address."),
      where: 'other',
    },
  ];
  const remembered = readServers();
  if (remembered.length) {
    items.push({ label: vscode.l10n.t('Remembered servers'), kind: vscode.QuickPickItemKind.Separator });
    for (const server of remembered)
      items.push({ label: `$(server) ${server.name}`, description: server.url, where: server });
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Connect to OpenHands'),
    placeHolder: vscode.l10n.t('Where does your OpenHands run?'),
    ignoreFocusOut: true,
  });
  return picked?.where;
}

async function connectCloud(deps: ConnectDeps): Promise<boolean> {
  return keyStep(
    deps,
    { url: OPENHANDS_CLOUD_URL, authHeader: 'Authorization' },
    vscode.l10n.t('OpenHands Cloud'),
    {
      title: vscode.l10n.t('OpenHands Cloud API key'),
      prompt: vscode.l10n.t(
        'Create one at app.all-hands.dev → Settings → API Keys (the button on the right opens it). Kept in Secret Storage.',
      ),
      keysPage: CLOUD_KEYS_PAGE,
    },
  );
}

async function connectLocal(deps: ConnectDeps): Promise<boolean> {
  let found = await withTestProgress(vscode.l10n.t('Looking for OpenHands on this machine…'), () =>
    findLocalServer(deps.log),
  );
  if (!found) {
    const run = vscode.l10n.t('Run in Terminal');
    const guide = vscode.l10n.t('Open the Guide');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('No OpenHands answers on this machine (looked at ports {0}).', LOCAL_PORTS.join(', ')),
      {
        modal: true,
        detail: vscode.l10n.t(
          'Start one with “{0}” (it needs uv and Docker; the first start downloads OpenHands), then connect again. Run in Terminal starts it in a terminal you can watch, and connects when it answers.',
          START_COMMAND,
        ),
      },
      run,
      guide,
    );
    if (answer === guide) void vscode.env.openExternal(vscode.Uri.parse(START_GUIDE));
    if (answer !== run) return false;
    found = await startLocalServer(deps.log);
    if (!found) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'OpenHands did not answer on http://localhost:3000. The terminal says why; connect again once it runs.',
        ),
      );
      return false;
    }
  }
  const name = vscode.l10n.t('This machine (:{0})', new URL(found.url).port);
  return next(deps, { url: found.url, authHeader: 'X-Session-API-Key' }, found.result, name);
}

async function connectOther(deps: ConnectDeps): Promise<boolean> {
  const tested = await askTested(
    {
      title: vscode.l10n.t('Connect to OpenHands: server address'),
      prompt: vscode.l10n.t(
        'The address you open OpenHands at in a browser, e.g. https://openhands.example.com',
      ),
      placeholder: 'https://',
    },
    async (text, signal) => {
      const check = checkServerUrl(text);
      if (!check.ok) return { problem: check.message };
      const candidate: ServerCandidate = { url: check.url, authHeader: 'X-Session-API-Key' };
      const result = await testServer(candidate, testDeps(deps, signal));
      // what the next steps can fix (a key, a certificate) moves on; anything else is said under the box
      const movesOn = ['ok', 'needs-key', 'untrusted-certificate'].includes(result.outcome);
      return movesOn ? { value: { candidate, result } } : { problem: problemText(check.url, result) ?? '' };
    },
  );
  if (!tested) return false;
  return next(deps, tested.candidate, tested.result, undefined);
}

/** After a test: name and save, or ask what is missing (a key, a certificate), or say what is wrong. */
async function next(
  deps: ConnectDeps,
  candidate: ServerCandidate,
  result: ServerTestResult,
  name: string | undefined,
): Promise<boolean> {
  if (result.outcome === 'ok') return nameAndSave(deps, candidate, result, name);
  if (result.outcome === 'needs-key' || result.outcome === 'key-rejected') {
    return keyStep(deps, candidate, name, {
      title: vscode.l10n.t('API key for {0}', candidate.url),
      prompt: vscode.l10n.t(
        'This server needs an API key: from its administrator, or its web page under Settings → API Keys. Kept in Secret Storage.',
      ),
    });
  }
  if (result.outcome === 'untrusted-certificate') {
    const trust = await askTrust(candidate.url);
    if (!trust) return false;
    const trusted = { ...candidate, ...trust };
    const again = await withTestProgress(vscode.l10n.t('Testing {0}…', candidate.url), () =>
      runTest(deps, trusted),
    );
    if (again.outcome !== 'untrusted-certificate') return next(deps, trusted, again, name);
  }
  return showProblem(deps, candidate.url, result);
}

/** The key box: each key is tested before the box closes; a refused one is said under it, to type again. */
async function keyStep(
  deps: ConnectDeps,
  candidate: ServerCandidate,
  name: string | undefined,
  box: { title: string; prompt: string; keysPage?: string },
): Promise<boolean> {
  // asked before the key is typed: a dialog over the box would close it
  if (!(await mayGetKey(deps, candidate.url))) return false;
  const tested = await askTested({ ...box, password: true }, async (apiKey, signal) => {
    const { result, authHeader } = await testKey({ ...candidate, apiKey }, testDeps(deps, signal));
    const keyed = { candidate: { ...candidate, apiKey, authHeader }, result };
    // a certificate to trust is chosen outside this box; a refused key is said under it
    if (result.outcome === 'ok' || result.outcome === 'untrusted-certificate') return { value: keyed };
    return { problem: problemText(candidate.url, result) ?? '' };
  });
  if (!tested) return false;
  if (tested.result.outcome !== 'ok') return next(deps, tested.candidate, tested.result, name);
  return nameAndSave(deps, tested.candidate, tested.result, name);
}

async function nameAndSave(
  deps: ConnectDeps,
  candidate: ServerCandidate,
  result: ServerTestResult,
  name: string | undefined,
): Promise<boolean> {
  const chosenName =
    name ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t('Connect to OpenHands: a name for this server'),
      prompt: vscode.l10n.t('Shown in the status bar and the views; you can keep the suggestion.'),
      value: defaultServerName(candidate.url),
      ignoreFocusOut: true,
    }));
  if (chosenName === undefined) return false;
  const server = serverOf(candidate, chosenName.trim() || defaultServerName(candidate.url));
  await save(deps, server, candidate.apiKey);
  const model = await readModel(deps);
  deps.notice.show(connectedText(server.name, result, model), modelOfferLink(model));
  return true;
}

async function showProblem(deps: ConnectDeps, url: string, result: ServerTestResult): Promise<boolean> {
  const retry = vscode.l10n.t('Try Again');
  const log = vscode.l10n.t('Show Log');
  const answer = await vscode.window.showErrorMessage(problemText(url, result) ?? '', retry, log);
  if (answer === log) deps.log.show();
  if (answer === retry) return connectInteractively(deps);
  return false;
}

type Tested<T> = { value: T } | { problem: string };

/**
 * An input box that tests what is typed before it closes: busy while the test runs, and what the
 * test found wrong shown under the box, so the user corrects it in place.
 */
async function askTested<T>(
  box: { title: string; prompt: string; placeholder?: string; password?: boolean; keysPage?: string },
  test: (value: string, signal: AbortSignal) => Promise<Tested<T>>,
): Promise<T | undefined> {
  const input = vscode.window.createInputBox();
  input.title = box.title;
  input.prompt = box.prompt;
  input.placeholder = box.placeholder;
  input.password = box.password === true;
  input.ignoreFocusOut = true;
  const keysPage = box.keysPage;
  if (keysPage) {
    input.buttons = [
      { iconPath: new vscode.ThemeIcon('link-external'), tooltip: vscode.l10n.t('Open the API keys page') },
    ];
  }
  return new Promise<T | undefined>((resolve) => {
    let done = false;
    // the test in flight: closing the box stops it (no key tried after Escape)
    let running: AbortController | undefined;
    const finish = (value: T | undefined) => {
      if (done) return;
      done = true;
      running?.abort();
      resolve(value);
      input.dispose();
    };
    input.onDidTriggerButton(() => keysPage && void vscode.env.openExternal(vscode.Uri.parse(keysPage)));
    input.onDidChangeValue(() => (input.validationMessage = undefined));
    input.onDidAccept(async () => {
      const value = input.value.trim();
      if (input.busy) return;
      if (!value) {
        input.validationMessage = box.password
          ? vscode.l10n.t('The API key cannot be empty.')
          : vscode.l10n.t('Enter the address.');
        return;
      }
      input.busy = true;
      input.enabled = false;
      input.prompt = vscode.l10n.t('Testing the connection…');
      running = new AbortController();
      const outcome = await test(value, running.signal).catch((error: unknown): Tested<T> => ({
        problem: error instanceof Error ? error.message : String(error),
      }));
      if (done) return;
      input.busy = false;
      input.enabled = true;
      input.prompt = box.prompt;
      if ('value' in outcome) finish(outcome.value);
      else input.validationMessage = outcome.problem;
    });
    input.onDidHide(() => finish(undefined));
    input.show();
  });
}

async function askTrust(url: string): Promise<Pick<ServerCandidate, 'caFile' | 'insecure'> | undefined> {
  type Item = vscode.QuickPickItem & { choice: 'ca' | 'insecure' };
  const picked = await vscode.window.showQuickPick<Item>(
    [
      {
        label: `$(file) ${vscode.l10n.t("Choose your company's CA file…")}`,
        detail: vscode.l10n.t('A PEM file (-----BEGIN CERTIFICATE-----) from your IT department.'),
        choice: 'ca',
      },
      {
        label: `$(warning) ${vscode.l10n.t('Trust any certificate from this server')}`,
        detail: vscode.l10n.t(
          'Only for a server you run yourself: the connection is encrypted but not verified.',
        ),
        choice: 'insecure',
      },
    ],
    { title: vscode.l10n.t('The certificate of {0} is not trusted', url), ignoreFocusOut: true },
  );
  if (!picked) return undefined;
  if (picked.choice === 'insecure') return { insecure: true };
  const files = await vscode.window.showOpenDialog({
    title: vscode.l10n.t('CA certificate for {0}', url),
    canSelectMany: false,
    filters: { [vscode.l10n.t('Certificates')]: ['pem', 'crt', 'cer'], [vscode.l10n.t('All files')]: ['*'] },
  });
  const file = files?.[0];
  return file ? { caFile: file.fsPath } : undefined;
}

/** A key goes unencrypted to another machine only when the user agreed. */
async function mayGetKey(deps: ConnectDeps, url: string): Promise<boolean> {
  if (!isPlainHttpToAnotherHost(url) || deps.connection.plainHttp.allows(url)) return true;
  return deps.connection.plainHttp.ask(url, { modal: true });
}

function runTest(deps: ConnectDeps, candidate: ServerCandidate): Promise<ServerTestResult> {
  return testServer(candidate, testDeps(deps));
}

function testDeps(
  deps: ConnectDeps,
  signal?: AbortSignal,
): { log: Log; timeoutMs: number; signal?: AbortSignal } {
  return { log: deps.log, timeoutMs: Math.min(deps.connection.config.requestTimeoutMs, 15_000), signal };
}

function withTestProgress<T>(title: string, task: () => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, task);
}

function serverOf(candidate: ServerCandidate, name: string): RememberedServer {
  return {
    name,
    url: candidate.url,
    authHeader: candidate.authHeader,
    ...(candidate.caFile ? { caFile: candidate.caFile } : {}),
    ...(candidate.insecure ? { insecure: true } : {}),
  };
}

/**
 * Whether the server just saved can answer a conversation: a fresh 1.11 has no model and would leave
 * the first one "running" for ever. A read that fails says nothing and blocks nothing.
 */
async function readModel(deps: ConnectDeps): Promise<ModelCheck> {
  const client = deps.connection.client;
  if (!client) return { readiness: 'unknown' };
  const check = await checkModel(client, {
    onFailure: (reason) => deps.log.warn(`Connect: could not read whether the model is set up: ${reason}`),
  });
  deps.modelReady.report(check);
  return check;
}

/** "Set Up the Model…" in the Connected notice, when the model is missing. */
export function modelOfferLink(model: ModelCheck | ModelCheck['readiness'] | undefined) {
  if (model === undefined) return undefined;
  return needsModelSetup(typeof model === 'string' ? { readiness: model } : model)
    ? setUpModelLink()
    : undefined;
}

/** Remembers the server, keeps its key, and shows it in the views. */
async function save(deps: ConnectDeps, server: RememberedServer, apiKey: string | undefined): Promise<void> {
  if (apiKey) await deps.keys.set(server.url, apiKey);
  await rememberServer(server);
  await showServer(deps, server.url);
  deps.log.info(`Connected to ${server.url} (${server.authHeader}${apiKey ? ', key stored' : ''}).`);
}

/** Makes the server the one the views show (the setting `openhands.serverUrl`). */
export async function showServer(deps: Pick<ConnectDeps, 'connection'>, url: string): Promise<void> {
  await vscode.workspace
    .getConfiguration('openhands')
    .update('serverUrl', url, vscode.ConfigurationTarget.Global);
  await deps.connection.rebuild();
}

/** Switches to a remembered server; the current one is remembered first if it was not. */
export async function switchTo(deps: ConnectDeps, server: RememberedServer): Promise<void> {
  const config = deps.connection.config;
  if (config.serverUrl && !config.remembered && !sameServerUrl(config.serverUrl, server.url)) {
    await rememberServer({ name: config.serverName, url: config.serverUrl, authHeader: config.authHeader });
  }
  await showServer(deps, server.url);
}
