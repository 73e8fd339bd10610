// The Model page's host over real HTTP against the test server: a fresh OpenHands 1.11, a configured
// one, one before 1.11, and one that offers no settings route. What each message to the page says,
// what reaches the server, and that the key typed goes to the key store and the server only.
import assert from 'node:assert/strict';
import type { OpenHandsClient } from '../../../../../src/api';
import { ModelController } from '../../../../../src/webviews/modelForm/host/modelController';
import type { ModelDraft } from '../../../../../src/webviews/modelForm/shared/pageModel';
import {
  HostToWebviewSchema,
  MAX_CHOICES,
  type HostToWebview,
} from '../../../../../src/webviews/modelForm/shared/protocol';
import { ENGLISH_STRINGS } from '../../../../../src/webviews/modelForm/shared/uiStrings';
import { useTestServer, type ServerFixture } from '../../../api/harness';

const LLM_KEY = 'sk-model-page-secret-5e1d7b';

type Of<T extends HostToWebview['type']> = Extract<HostToWebview, { type: T }>;

/** The controller with an in-memory key store and log; `send` resolves with what it posted. */
function harness(t: ServerFixture, options: { client?: () => OpenHandsClient | undefined } = {}) {
  const keys = new Map<string, string>();
  const remembered: string[] = [];
  const logLines: string[] = [];
  const posted: HostToWebview[] = [];
  const deleteQuestions: { name: string; active: boolean }[] = [];
  let deleteAnswer = true;
  const opened: string[] = [];
  const controller = new ModelController({
    // as the panel does: a message the protocol refuses would never reach the page
    post: (message) => posted.push(HostToWebviewSchema.parse(message)),
    target: {
      serverUrl: () => t.server.url,
      serverName: () => 'Test server',
      client: options.client ?? (() => t.client),
    },
    keys: {
      get: async (url) => keys.get(url),
      set: async (url, value) => void keys.set(url, value),
    },
    rememberSecret: (value) => remembered.push(value),
    strings: ENGLISH_STRINGS,
    log: {
      info: (line) => logLines.push(line),
      warn: (line) => logLines.push(line),
      error: (line) => logLines.push(line),
    },
    confirmDelete: async (name, active) => {
      deleteQuestions.push({ name, active });
      return deleteAnswer;
    },
    openInBrowser: (url) => opened.push(url),
    showLog: () => undefined,
    configureServer: () => undefined,
  });
  const send = async (message: unknown): Promise<HostToWebview[]> => {
    const before = posted.length;
    controller.receive(message);
    await controller.idle();
    return posted.slice(before);
  };
  return {
    keys,
    remembered,
    logLines,
    posted,
    deleteQuestions,
    opened,
    answerDelete: (answer: boolean) => (deleteAnswer = answer),
    send,
  };
}

function find<T extends HostToWebview['type']>(messages: HostToWebview[], type: T): Of<T> {
  const found = messages.find((m): m is Of<T> => m.type === type);
  assert.ok(found, `no ${type} among ${JSON.stringify(messages.map((m) => m.type))}`);
  return found;
}

function draft(serverUrl: string, fields: Partial<ModelDraft> = {}): ModelDraft {
  return {
    serverUrl,
    source: 'custom',
    provider: '',
    model: '',
    customModel: '',
    baseUrl: '',
    apiKey: '',
    confirmationMode: null,
    condenserEnabled: null,
    maxBudget: '',
    ...fields,
  };
}

function settingsPosts(t: ServerFixture): { path: string; body: unknown }[] {
  return t.server.requests
    .filter((r) => r.method === 'POST' && /settings/.test(r.path))
    .map((r) => ({ path: r.path, body: r.body }));
}

describe('Model page host', () => {
  describe('a fresh OpenHands 1.11 (nothing stored)', () => {
    const t = useTestServer({ legacySettingsRoutes: false });
    beforeEach(() => {
      t.server.state.settings = null;
    });

    it('reads "no model is set up yet"; a first save of a custom model with its key stores exactly that', async () => {
      const h = harness(t);
      const init = find(await h.send({ type: 'ready' }), 'init');
      assert.equal(init.page?.stored, null);
      assert.equal(init.page?.readiness, 'no-settings');
      assert.equal(init.page?.readinessText, ENGLISH_STRINGS.readyNoSettings);
      assert.equal(init.page?.serverName, 'Test server');
      assert.equal(init.page?.catalogueOffered, true);

      const answers = await h.send({
        type: 'save',
        draft: draft(t.server.url, {
          customModel: 'openai/my-model',
          baseUrl: 'http://127.0.0.1:8000/v1',
          apiKey: LLM_KEY,
        }),
      });
      const state = find(answers, 'state');
      assert.equal(state.reason, 'saved');
      assert.equal(state.notice?.kind, 'ok');
      assert.equal(state.notice?.text, 'Saved. Ready: conversations use openai/my-model.');
      const stored = t.server.state.settings;
      assert.ok(stored);
      assert.deepEqual(
        [stored.llm_model, stored.llm_base_url, stored.llm_api_key],
        ['openai/my-model', 'http://127.0.0.1:8000/v1', LLM_KEY],
      );
      assert.deepEqual(
        settingsPosts(t).map((p) => p.path),
        ['/api/v1/settings'],
      );
      assert.equal(h.keys.get(t.server.url), LLM_KEY, 'the key is kept in the key store');
      assert.ok(h.remembered.includes(LLM_KEY), 'the transport is told to mask it');
      assert.ok(!JSON.stringify(h.posted).includes(LLM_KEY), 'never posted to the page');
      assert.ok(!JSON.stringify(h.logLines).includes(LLM_KEY), 'never in the log lines');
      assert.ok(!JSON.stringify(t.logs).includes(LLM_KEY), 'never in the request log');
    });
  });

  describe('a configured OpenHands 1.11', () => {
    const t = useTestServer({ legacySettingsRoutes: false, seed: { sandboxes: 1, conversations: 1 } });

    it('sends only what the user changed, and nothing when nothing changed', async () => {
      const h = harness(t);
      const page = find(await h.send({ type: 'ready' }), 'init').page;
      assert.ok(page?.stored);
      const stored = page.stored;
      assert.equal(page.readiness, 'ready');
      assert.equal(page.readinessText, `Ready: conversations use ${stored.model}.`);
      const same = draft(t.server.url, {
        source: 'catalogue',
        provider: 'anthropic',
        model: stored.model ?? '',
        confirmationMode: stored.confirmationMode,
        condenserEnabled: stored.condenserEnabled,
        maxBudget: stored.maxBudgetPerTask === null ? '' : String(stored.maxBudgetPerTask),
      });
      t.server.requests.length = 0;
      const unchanged = find(await h.send({ type: 'save', draft: same }), 'state');
      assert.match(unchanged.notice?.text ?? '', /^Nothing changed: nothing was sent\./);
      assert.deepEqual(settingsPosts(t), []);

      await h.send({
        type: 'save',
        draft: { ...same, confirmationMode: !stored.confirmationMode, maxBudget: '2.50' },
      });
      assert.deepEqual(settingsPosts(t), [
        {
          path: '/api/v1/settings',
          body: {
            conversation_settings_diff: { confirmation_mode: !stored.confirmationMode },
            max_budget_per_task: 2.5,
          },
        },
      ]);
    });

    it('a form that breaks a rule is refused in words, field by field, and nothing is sent', async () => {
      const h = harness(t);
      await h.send({ type: 'ready' });
      t.server.requests.length = 0;
      const refused = find(
        await h.send({
          type: 'save',
          draft: draft(t.server.url, {
            customModel: 'my model',
            baseUrl: 'ftp://x',
            maxBudget: 'ten',
            apiKey: 'a b',
          }),
        }),
        'validationFailed',
      );
      assert.deepEqual(refused.errors, {
        customModel: ENGLISH_STRINGS.errModelSpaces,
        baseUrl: ENGLISH_STRINGS.errBaseUrl,
        maxBudget: ENGLISH_STRINGS.errBudget,
        apiKey: ENGLISH_STRINGS.errKeySpaces,
      });
      assert.deepEqual(settingsPosts(t), []);
      const stale = find(
        await h.send({ type: 'save', draft: draft('http://127.0.0.1:1', { customModel: 'openai/x' }) }),
        'validationFailed',
      );
      assert.deepEqual(stale.errors, { form: ENGLISH_STRINGS.errServerChanged });
    });

    it("the server's 422 names the field; the key stays out of every message and log line", async () => {
      const h = harness(t);
      await h.send({ type: 'ready' });
      t.server.faults.add({
        kind: 'status',
        status: 422,
        times: 1,
        match: { method: 'POST', path: '/api/v1/settings' },
        body: {
          detail: [
            {
              loc: ['body', 'agent_settings_diff', 'llm', 'base_url'],
              msg: `Input should be a valid URL, not ${LLM_KEY}`,
              type: 'url_parsing',
            },
          ],
        },
      });
      const answers = await h.send({
        type: 'save',
        draft: draft(t.server.url, {
          customModel: 'openai/x',
          baseUrl: 'http://127.0.0.1:9/v1',
          apiKey: LLM_KEY,
        }),
      });
      const refused = find(answers, 'validationFailed');
      assert.ok(refused.errors.baseUrl, JSON.stringify(refused));
      assert.match(
        refused.notice?.text ?? '',
        /^Nothing was saved: .*\(422\): agent_settings_diff\.llm\.base_url: .*\. Your entries are kept; fix them and save again\.$/,
      );
      assert.equal(h.keys.get(t.server.url), undefined, 'a key the server refused is not kept');
      assert.ok(!JSON.stringify(h.posted).includes(LLM_KEY));
      assert.ok(!JSON.stringify(h.logLines).includes(LLM_KEY));
    });

    it('searches the catalogue here and posts only what the page shows, verified first', async () => {
      const h = harness(t);
      const providers = find(
        await h.send({ type: 'search', list: 'providers', provider: '', query: '' }),
        'choices',
      );
      assert.ok(providers.items.length > 0 && providers.items.length <= MAX_CHOICES);
      assert.equal(providers.items[0]?.value, 'openhands');
      const flags = providers.items.map((p) => p.verified);
      assert.deepEqual(
        flags,
        [...flags].sort((a, b) => Number(b) - Number(a)),
      );

      const sonnet = find(
        await h.send({ type: 'search', list: 'models', provider: 'anthropic', query: 'SONNET' }),
        'choices',
      );
      assert.ok(sonnet.items.length > 0);
      assert.ok(sonnet.items.every((m) => m.value.startsWith('anthropic/') && /sonnet/i.test(m.label)));

      t.server.state.modelCatalogue = Array.from({ length: 3000 }, (_, i) => `bulk/model-${i}`);
      const bulk = find(
        await h.send({ type: 'search', list: 'models', provider: 'bulk', query: '' }),
        'choices',
      );
      assert.equal(bulk.items.length, MAX_CHOICES);
      assert.equal(bulk.more, 3000 - MAX_CHOICES);
      const reads = t.server.requests.filter((r) => r.path === '/api/v1/config/models/search').length;
      const narrowed = find(
        await h.send({ type: 'search', list: 'models', provider: 'bulk', query: 'model-2999' }),
        'choices',
      );
      assert.deepEqual(
        narrowed.items.map((m) => m.value),
        ['bulk/model-2999'],
      );
      assert.equal(
        t.server.requests.filter((r) => r.path === '/api/v1/config/models/search').length,
        reads,
        'a narrower search reads nothing again',
      );
    });

    it('profiles: save as, activate (the settings follow), rename, delete (asked first)', async () => {
      const h = harness(t);
      await h.send({ type: 'ready' });
      const before = t.server.requests.length;
      const badName = find(
        await h.send({ type: 'profile', action: 'save', name: 'no spaces' }),
        'validationFailed',
      );
      assert.deepEqual(badName.errors, { profileName: ENGLISH_STRINGS.errProfileName });
      assert.equal(t.server.requests.length, before, 'a bad name is refused before sending');

      await t.client.modelSetup.saveProfile('fast', { model: 'openai/gpt-4o', apiKey: LLM_KEY });
      const saved = find(await h.send({ type: 'profile', action: 'save', name: 'current' }), 'state');
      assert.equal(saved.reason, 'profile');
      assert.match(saved.notice?.text ?? '', /^Saved the current settings as profile current\./);
      assert.deepEqual(
        saved.page?.profiles?.map((p) => p.name),
        ['fast', 'current'],
      );

      const activated = find(await h.send({ type: 'profile', action: 'activate', name: 'fast' }), 'state');
      assert.equal(
        activated.notice?.text,
        'Activated fast: conversations now use openai/gpt-4o. Ready: conversations use openai/gpt-4o.',
      );
      assert.equal(activated.page?.stored?.model, 'openai/gpt-4o', 'the page reads the settings again');
      assert.deepEqual(
        activated.page?.profiles?.filter((p) => p.active).map((p) => p.name),
        ['fast'],
      );

      const renamed = find(await h.send({ type: 'renameProfile', name: 'fast', newName: 'quick' }), 'state');
      assert.deepEqual(
        renamed.page?.profiles?.map((p) => [p.name, p.active]),
        [
          ['quick', true],
          ['current', false],
        ],
      );

      h.answerDelete(false);
      const kept = find(
        await h.send({ type: 'profile', action: 'delete', name: 'quick' }),
        'validationFailed',
      );
      assert.equal(kept.notice?.text, ENGLISH_STRINGS.profileDeleteNotDone);
      assert.ok(!t.server.requests.some((r) => r.method === 'DELETE'));
      h.answerDelete(true);
      const deleted = find(await h.send({ type: 'profile', action: 'delete', name: 'quick' }), 'state');
      assert.deepEqual(h.deleteQuestions, [
        { name: 'quick', active: true },
        { name: 'quick', active: true },
      ]);
      assert.deepEqual(
        deleted.page?.profiles?.map((p) => [p.name, p.active]),
        [['current', true]],
      );
      assert.ok(!JSON.stringify(h.posted).includes(LLM_KEY));
    });

    it('hostile sizes: a huge stored model, catalogue name and refusal still reach the page, bounded', async () => {
      const h = harness(t);
      const settings = t.server.state.settings;
      assert.ok(settings);
      settings.llm_model = `openai/${'m'.repeat(3000)}`;
      t.server.state.modelCatalogue = [`openai/${'x'.repeat(600)}`, 'openai/gpt-4o'];
      const init = find(await h.send({ type: 'ready' }), 'init');
      assert.ok(init.page && init.page.readinessText.length <= 1000);
      const models = find(
        await h.send({ type: 'search', list: 'models', provider: 'openai', query: '' }),
        'choices',
      );
      assert.deepEqual(
        models.items.map((m) => m.value),
        ['openai/gpt-4o'],
      );
      t.server.faults.add({
        kind: 'status',
        status: 422,
        times: 1,
        match: { method: 'POST', path: '/api/v1/settings' },
        body: {
          detail: [{ loc: ['body', 'max_budget_per_task'], msg: 'n'.repeat(5000), type: 'value_error' }],
        },
      });
      const refused = find(
        await h.send({
          type: 'save',
          draft: draft(t.server.url, { customModel: 'openai/x', maxBudget: '3' }),
        }),
        'validationFailed',
      );
      assert.ok(refused.errors.maxBudget);
    });

    it('another client (a server switch) reads its own catalogue', async () => {
      let client = t.client;
      const h = harness(t, { client: () => client });
      await h.send({ type: 'search', list: 'providers', provider: '', query: '' });
      client = t.newClient();
      const count = () =>
        t.server.requests.filter((r) => r.path === '/api/v1/config/providers/search').length;
      const before = count();
      await h.send({ type: 'search', list: 'providers', provider: '', query: '' });
      assert.equal(count(), before + 1);
    });
  });

  describe('a server before 1.11 (legacy settings only)', () => {
    const t = useTestServer({ routesSince1_11: false });

    it('saves the model on the legacy route; profiles and the catalogue are not offered; nothing goes to /api/v1', async () => {
      const h = harness(t);
      const page = find(await h.send({ type: 'ready' }), 'init').page;
      assert.equal(page?.settingsRoute, 'legacy');
      assert.equal(page?.catalogueOffered, false);
      assert.equal(page?.profiles, null);
      await h.send({
        type: 'save',
        draft: draft(t.server.url, {
          customModel: 'openai/my-model',
          baseUrl: 'http://127.0.0.1:8000/v1',
          apiKey: LLM_KEY,
        }),
      });
      assert.equal(t.server.state.settings?.llm_model, 'openai/my-model');
      assert.equal(t.server.state.settings?.llm_api_key, LLM_KEY);
      const profile = find(
        await h.send({ type: 'profile', action: 'save', name: 'fast' }),
        'validationFailed',
      );
      assert.equal(profile.notice?.text, ENGLISH_STRINGS.profilesNotOffered);
      assert.deepEqual(
        settingsPosts(t).map((p) => p.path),
        ['/api/settings'],
        'the model on the legacy route, nothing to a route the server did not offer',
      );
    });
  });

  describe('a server that offers no settings route (its web page keeps the model)', () => {
    const t = useTestServer({ legacySettingsRoutes: false });

    it('says so, offers its web page, and writes nothing', async () => {
      t.server.faults.add({
        kind: 'status',
        status: 404,
        body: { detail: 'Not Found' },
        match: { path: '/api/v1/settings' },
      });
      const h = harness(t);
      const page = find(await h.send({ type: 'ready' }), 'init').page;
      assert.equal(page?.settingsRoute, 'none');
      assert.equal(page?.readiness, 'unknown');
      assert.equal(page?.readinessText, ENGLISH_STRINGS.readyUnknown);
      assert.equal(page?.webUrl, `${t.server.url}/`);
      const refused = find(
        await h.send({
          type: 'save',
          draft: draft(t.server.url, { customModel: 'openai/x', apiKey: LLM_KEY }),
        }),
        'validationFailed',
      );
      assert.equal(refused.notice?.text, ENGLISH_STRINGS.notOfferedSettings);
      assert.deepEqual(settingsPosts(t), []);
      assert.equal(h.keys.size, 0);
      await h.send({ type: 'openInBrowser' });
      assert.deepEqual(h.opened, [`${t.server.url}/`]);
    });
  });
});
