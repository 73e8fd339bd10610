// The Model page inside a real VS Code against test servers of its own: a fresh OpenHands 1.11, and
// one before 1.11. Opened by its command; what the page is sent, what reaches the server, and where the
// key is kept (Secret Storage only: not in settings, globalState, the log file or any message posted).
import * as assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { ModelFormTestApi } from '../../src/webviews/modelForm/host/register';
import type { ModelDraft } from '../../src/webviews/modelForm/shared/pageModel';
import type { HostToWebview } from '../../src/webviews/modelForm/shared/protocol';
import type { OpenHandsExtensionApi } from '../../src/extension';
import { startTestServer, type TestServer } from '../server';
import { eventually } from '../shared/eventually';
import { extensionApi, setSetting, useTestServerSettings } from './extensionApi';

const LLM_KEY = 'sk-integration-llm-key-8c2e4f';
const COMMAND = 'openhands.setUpModel';

type Of<T extends HostToWebview['type']> = Extract<HostToWebview, { type: T }>;

function find<T extends HostToWebview['type']>(answers: HostToWebview[] | undefined, type: T): Of<T> {
  const found = answers?.find((m): m is Of<T> => m.type === type);
  assert.ok(found, `no ${type} among ${JSON.stringify(answers?.map((m) => m.type))}`);
  return found;
}

function customDraft(serverUrl: string, fields: Partial<ModelDraft> = {}): ModelDraft {
  return {
    serverUrl,
    source: 'custom',
    provider: '',
    model: '',
    customModel: 'openai/my-model',
    baseUrl: 'http://127.0.0.1:8000/v1',
    apiKey: LLM_KEY,
    confirmationMode: null,
    condenserEnabled: null,
    maxBudget: '',
    ...fields,
  };
}

function settingsWrites(server: TestServer): string[] {
  return server.requests
    .filter((r) => r.method !== 'GET' && /settings/.test(r.path))
    .map((r) => `${r.method} ${r.path}`);
}

describe('Model page (in VS Code)', function () {
  this.timeout(60_000);
  let api: OpenHandsExtensionApi;
  let page: ModelFormTestApi;
  let fresh: TestServer;
  let older: TestServer;

  async function connectTo(server: TestServer): Promise<void> {
    await setSetting('serverUrl', server.url);
    await api.connection.rebuild();
    assert.equal(api.connection.config.serverUrl, server.url);
  }

  before(async () => {
    api = await extensionApi();
    assert.ok(api.modelForm, 'activate() returns the page hooks when the extension runs its tests');
    page = api.modelForm;
    fresh = await startTestServer({ legacySettingsRoutes: false, seed: { sandboxes: 0, conversations: 0 } });
    older = await startTestServer({ routesSince1_11: false, seed: { sandboxes: 0, conversations: 0 } });
  });

  beforeEach(() => {
    fresh.reset();
    older.reset();
    fresh.state.settings = null;
  });

  afterEach(async () => {
    page.closePanel();
    page.answerDelete(undefined);
    await page.clearStoredKey(fresh.url);
    await page.clearStoredKey(older.url);
  });

  after(async () => {
    await setSetting('httpLogLevel', undefined);
    if (api) await useTestServerSettings(api);
    await fresh?.close();
    await older?.close();
  });

  it('opens by its command; a fresh server reads "No model is set up yet"; a first save stores the custom model and its key, kept only in Secret Storage', async () => {
    await connectTo(fresh);
    await setSetting('httpLogLevel', 'bodies');
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes(COMMAND));
    await vscode.commands.executeCommand(COMMAND);
    assert.equal(page.isPanelOpen(), true, 'the command opens the panel');
    const init = find(await page.sendFromWebview({ type: 'ready' }), 'init');
    assert.equal(init.page?.readiness, 'no-settings');
    assert.match(init.page?.readinessText ?? '', /^No model is set up yet/);

    const saved = find(await page.sendFromWebview({ type: 'save', draft: customDraft(fresh.url) }), 'state');
    assert.equal(saved.notice?.text, 'Saved. Ready: conversations use openai/my-model.');
    const stored = fresh.state.settings;
    assert.ok(stored);
    assert.deepEqual(
      [stored.llm_model, stored.llm_base_url, stored.llm_api_key],
      ['openai/my-model', 'http://127.0.0.1:8000/v1', LLM_KEY],
    );

    // the walkthrough's "Set up the model" step ticks after the save, without a new Connect
    await eventually(
      () => Promise.resolve(api.modelReady.ready),
      (ready) => ready === true,
      { description: 'openhands.modelReady after the save' },
    );

    assert.equal(await page.storedKey(fresh.url), LLM_KEY, 'the key is in Secret Storage');
    assert.ok(
      !JSON.stringify(vscode.workspace.getConfiguration('openhands')).includes(LLM_KEY),
      'not in settings',
    );
    assert.ok(!page.globalStateText().includes(LLM_KEY), 'not in globalState');
    assert.ok(!JSON.stringify(page.postedSinceOpen()).includes(LLM_KEY), 'in no message posted to the page');
    const logFile = vscode.Uri.joinPath(api.logUri, 'OpenHands.log').fsPath;
    const log = await eventually(
      () => readFile(logFile, 'utf8'),
      (text) => text.includes('POST /api/v1/settings'),
      { description: 'the save in the log file', retryErrors: true },
    );
    assert.ok(!log.includes(LLM_KEY), 'not in the log file');
  });

  it('a server before 1.11: the model is saved on the legacy route, profiles say they are not offered, nothing goes to /api/v1/settings', async () => {
    await connectTo(older);
    await vscode.commands.executeCommand(COMMAND);
    const init = find(await page.sendFromWebview({ type: 'ready' }), 'init');
    assert.equal(init.page?.settingsRoute, 'legacy');
    assert.equal(init.page?.profiles, null);
    assert.equal(init.page?.catalogueOffered, false);
    find(await page.sendFromWebview({ type: 'save', draft: customDraft(older.url) }), 'state');
    assert.equal(older.state.settings?.llm_model, 'openai/my-model');
    assert.equal(older.state.settings?.llm_api_key, LLM_KEY);
    const refused = find(
      await page.sendFromWebview({ type: 'profile', action: 'save', name: 'fast' }),
      'validationFailed',
    );
    assert.match(refused.notice?.text ?? '', /no LLM profiles/);
    assert.deepEqual(settingsWrites(older), ['POST /api/settings']);
  });

  it('profiles: save, activate, rename and delete reach the server; the page follows a server switch', async () => {
    await connectTo(fresh);
    await vscode.commands.executeCommand(COMMAND);
    find(await page.sendFromWebview({ type: 'ready' }), 'init');
    await page.sendFromWebview({ type: 'save', draft: customDraft(fresh.url) });
    find(await page.sendFromWebview({ type: 'profile', action: 'save', name: 'local' }), 'state');
    await page.sendFromWebview({
      type: 'save',
      draft: customDraft(fresh.url, { customModel: 'openai/other-model', apiKey: '' }),
    });
    const activated = find(
      await page.sendFromWebview({ type: 'profile', action: 'activate', name: 'local' }),
      'state',
    );
    assert.equal(activated.page?.stored?.model, 'openai/my-model', 'the settings follow the profile');
    find(await page.sendFromWebview({ type: 'renameProfile', name: 'local', newName: 'mine' }), 'state');
    page.answerDelete(true);
    const deleted = find(
      await page.sendFromWebview({ type: 'profile', action: 'delete', name: 'mine' }),
      'state',
    );
    assert.deepEqual(deleted.page?.profiles, []);
    assert.deepEqual(
      settingsWrites(fresh).filter((w) => w.includes('profiles')),
      [
        'POST /api/v1/settings/profiles/local',
        'POST /api/v1/settings/profiles/local/activate',
        'POST /api/v1/settings/profiles/local/rename',
        'DELETE /api/v1/settings/profiles/mine',
      ],
    );

    // another server: the open page reads it without being asked
    const before = page.postedSinceOpen().length;
    await connectTo(older);
    const switched = await eventually(
      () => page.postedSinceOpen().slice(before),
      (posted) => posted.some((m) => m.type === 'state' && m.page?.serverUrl === older.url),
      { description: 'the page reading the new server' },
    );
    assert.ok(switched.length > 0);
  });
});
