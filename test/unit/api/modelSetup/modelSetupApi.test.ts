// The client's model setup over real HTTP against the test server: a fresh 1.11 (no settings), a
// configured one, and a server before 1.11 (legacy `/api/settings` only: the rest is not offered and
// nothing is written). The key sent is never in an error or a log line.
import assert from 'node:assert/strict';
import {
  ApiError,
  catalogueKnows,
  modelId,
  modelReadiness,
  type ModelSettings,
  type ModelSettingsRead,
  type Offered,
} from '../../../../src/api';
import { useTestServer } from '../harness';

const LLM_KEY = 'sk-llm-setup-secret-7f3a9c';

function stored(read: Offered<ModelSettingsRead>): ModelSettings {
  assert.ok(read.offered && read.value.kind === 'stored', 'settings are stored');
  return read.value.settings;
}

describe('OpenHandsClient.modelSetup', () => {
  describe('a fresh OpenHands 1.11 (nothing stored)', () => {
    const t = useTestServer({ legacySettingsRoutes: false });
    beforeEach(() => {
      t.server.state.settings = null;
    });

    it('reads "no settings yet" (the 404), not an error; readiness says so', async () => {
      const read = await t.client.modelSetup.readModelSettings();
      assert.deepEqual(read, { offered: true, value: { kind: 'none' } });
      assert.equal(modelReadiness(read), 'no-settings');
      assert.equal(t.client.settingsGeneration, 'v1');
    });

    it('saves the model and the key as a v1 diff; the key comes back only as llm_api_key_set', async () => {
      const saved = await t.client.modelSetup.saveModelSettings({
        model: 'anthropic/claude-sonnet-4-6',
        apiKey: LLM_KEY,
      });
      assert.deepEqual(saved, { offered: true, value: true });
      const post = t.server.requests.find((r) => r.method === 'POST' && r.path === '/api/v1/settings');
      assert.deepEqual(post?.body, {
        agent_settings_diff: { llm: { model: 'anthropic/claude-sonnet-4-6', api_key: LLM_KEY } },
      });
      const read = await t.client.modelSetup.readModelSettings();
      const settings = stored(read);
      assert.equal(settings.model, 'anthropic/claude-sonnet-4-6');
      assert.equal(settings.apiKeySet, true);
      assert.equal(settings.generation, 'v1');
      assert.equal(modelReadiness(read), 'ready');
      assert.ok(!JSON.stringify(t.logs).includes(LLM_KEY));
    });
  });

  describe('a configured OpenHands 1.11', () => {
    const t = useTestServer({ legacySettingsRoutes: false, seed: { sandboxes: 1, conversations: 1 } });

    it('posts only what changed, and nothing when nothing did', async () => {
      const settings = stored(await t.client.modelSetup.readModelSettings());
      const before = t.server.requests.length;
      const same = await t.client.modelSetup.saveModelSettings(
        { model: settings.model ?? '', confirmationMode: settings.confirmationMode ?? false },
        settings,
      );
      assert.deepEqual(same, { offered: true, value: false });
      assert.equal(t.server.requests.length, before, 'nothing was sent');
      assert.equal(settings.condenserEnabled, true);
      await t.client.modelSetup.saveModelSettings(
        {
          model: settings.model ?? '',
          confirmationMode: true,
          maxBudgetPerTask: 2.5,
          baseUrl: null,
          condenserEnabled: false,
        },
        { ...settings, baseUrl: 'http://127.0.0.1:9/v1' },
      );
      assert.deepEqual(t.server.requests.at(-1)?.body, {
        agent_settings_diff: { llm: { base_url: '' }, condenser: { enabled: false } },
        conversation_settings_diff: { confirmation_mode: true },
        max_budget_per_task: 2.5,
      });
      const after = stored(await t.client.modelSetup.readModelSettings());
      assert.deepEqual(
        [after.confirmationMode, after.maxBudgetPerTask, after.baseUrl, after.condenserEnabled],
        [true, 2.5, null, false],
      );
    });

    it('a key removed from the server reads as no-key', async () => {
      const settings = t.server.state.settings;
      assert.ok(settings);
      settings.llm_api_key = null;
      settings.llm_model = 'openai/gpt-5.5';
      assert.equal(modelReadiness(await t.client.modelSetup.readModelSettings()), 'no-key');
    });

    it('reads the catalogue whole, verified first; a model it does not list is unknown', async () => {
      const models = await t.client.modelSetup.searchModels();
      assert.ok(models.offered);
      assert.equal(models.value.complete, true);
      const flags = models.value.items.map((m) => m.verified);
      assert.deepEqual(
        flags,
        [...flags].sort((a, b) => Number(b) - Number(a)),
        'verified first',
      );
      assert.ok(catalogueKnows(models.value.items, 'openai/gpt-5.5'));
      assert.ok(!catalogueKnows(models.value.items, 'openai/gpt-9-imaginary'));
      const anthropic = await t.client.modelSetup.searchModels({ provider: 'anthropic', verified: true });
      assert.ok(anthropic.offered);
      assert.deepEqual(anthropic.value.items.map(modelId), [
        'anthropic/claude-3-haiku-20240307',
        'anthropic/claude-sonnet-4-5-20250929',
        'anthropic/claude-sonnet-4-6',
      ]);
      const providers = await t.client.modelSetup.searchProviders();
      assert.ok(providers.offered);
      assert.equal(providers.value.items[0]?.name, 'openhands');
    });

    it('stops at the item bound: a few pages of a large catalogue, marked incomplete', async () => {
      t.server.state.modelCatalogue = Array.from({ length: 3000 }, (_, i) => `bulk/model-${i}`);
      const models = await t.client.modelSetup.searchModels({ maxItems: 250 });
      assert.ok(models.offered);
      assert.equal(models.value.items.length, 250);
      assert.equal(models.value.complete, false);
      const reads = t.server.requests.filter((r) => r.path === '/api/v1/config/models/search');
      assert.equal(reads.length, 3);
      assert.ok(reads.every((r) => r.query.limit?.[0] === '100'));
    });

    it('profiles: save (the key sent once), list, get, activate, rename, delete', async () => {
      const api = t.client.modelSetup;
      const saved = await api.saveProfile('fast', { model: 'openai/gpt-4o', apiKey: LLM_KEY });
      assert.deepEqual(saved, {
        offered: true,
        value: { name: 'fast', message: "Profile 'fast' saved", model: null },
      });
      await api.saveProfile('snapshot');
      const list = await api.listProfiles();
      assert.ok(list.offered);
      assert.deepEqual(
        list.value.profiles.map((p) => [p.name, p.model, p.api_key_set]),
        [
          ['fast', 'openai/gpt-4o', true],
          ['snapshot', 'anthropic/claude-sonnet-4-5-20250929', true],
        ],
      );
      const fast = await api.getProfile('fast');
      assert.ok(fast.offered && fast.value);
      assert.equal(fast.value.config.model, 'openai/gpt-4o');
      assert.deepEqual(await api.getProfile('missing'), { offered: true, value: undefined });
      const activated = await api.activateProfile('fast');
      assert.ok(activated.offered);
      assert.equal(activated.value.model, 'openai/gpt-4o');
      assert.equal(stored(await api.readModelSettings()).activeProfile, 'fast');
      await api.renameProfile('fast', 'quick');
      assert.equal(stored(await api.readModelSettings()).activeProfile, 'quick');
      await api.deleteProfile('quick');
      const left = await api.listProfiles();
      assert.ok(left.offered);
      assert.deepEqual(
        [left.value.profiles.map((p) => p.name), left.value.active_profile],
        [['snapshot'], 'snapshot'],
      );
      assert.ok(!JSON.stringify(t.logs).includes(LLM_KEY));
    });

    it('refusals: a bad name is refused before sending; 404 unknown, 409 taken and past ten', async () => {
      const api = t.client.modelSetup;
      const before = t.server.requests.length;
      await assert.rejects(api.saveProfile('a/b'), (e: ApiError) => e.kind === 'validation');
      await assert.rejects(api.renameProfile('a', 'no spaces'), (e: ApiError) => e.kind === 'validation');
      assert.equal(t.server.requests.length, before);
      await assert.rejects(api.activateProfile('nope'), (e: ApiError) => {
        assert.equal(e.status, 404);
        assert.match(e.serverMessage ?? '', /Profile 'nope' not found/);
        return true;
      });
      await api.saveProfile('one');
      await api.saveProfile('two');
      await assert.rejects(api.renameProfile('one', 'two'), (e: ApiError) => e.status === 409);
      for (let i = 0; i < 8; i++) await api.saveProfile(`p${i}`);
      await assert.rejects(api.saveProfile('eleventh'), (e: ApiError) => {
        assert.equal(e.status, 409);
        assert.match(e.message, /Profile limit reached/);
        return true;
      });
    });

    it('switch_profile moves a running conversation to the profile model; 409 when its sandbox is paused', async () => {
      const conversation = t.server.state.conversations[0];
      const sandbox = t.server.state.sandboxes[0];
      assert.ok(conversation && sandbox);
      sandbox.status = 'RUNNING';
      await t.client.modelSetup.saveProfile('fast', { model: 'openai/gpt-4o' });
      const switched = await t.client.modelSetup.switchProfile(conversation.id, 'fast');
      assert.deepEqual(switched, { offered: true, value: { success: true } });
      assert.equal((await t.client.getConversations([conversation.id]))[0]?.llm_model, 'openai/gpt-4o');
      sandbox.status = 'PAUSED';
      await assert.rejects(
        t.client.modelSetup.switchProfile(conversation.id, 'fast'),
        (e: ApiError) => e.status === 409,
      );
    });

    it('the start request carries llm_model and agent_profile_id', async () => {
      const task = await t.client.createConversation({
        llm_model: 'openai/gpt-4o',
        agent_profile_id: 'agent-1',
      });
      const sent = t.server.requests.find(
        (r) => r.method === 'POST' && r.path === '/api/v1/app-conversations',
      );
      assert.deepEqual(
        [
          (sent?.body as Record<string, unknown>).llm_model,
          (sent?.body as Record<string, unknown>).agent_profile_id,
        ],
        ['openai/gpt-4o', 'agent-1'],
      );
      const ready = await t.client.waitForStartTask(task.id, { intervalMs: 5 });
      assert.equal(
        (await t.client.getConversations([ready.app_conversation_id ?? '']))[0]?.llm_model,
        'openai/gpt-4o',
      );
    });
  });

  describe('the key is never in an error or a log line', () => {
    const t = useTestServer({ legacySettingsRoutes: false });

    it('a failed save whose reply echoes the key: masked in the error and the logged bodies', async () => {
      const client = t.newClient({ logBodies: true });
      for (const path of ['/api/v1/settings', '/api/v1/settings/profiles/leaky']) {
        t.server.faults.add({
          match: { path },
          times: 1,
          kind: 'status',
          status: 500,
          body: { error: `could not store api_key=${LLM_KEY} (${LLM_KEY})` },
        });
      }
      const failures: unknown[] = [];
      await client.modelSetup.saveModelSettings({ apiKey: LLM_KEY }).catch((e: unknown) => failures.push(e));
      await client.modelSetup
        .saveProfile('leaky', { model: 'm', apiKey: LLM_KEY })
        .catch((e: unknown) => failures.push(e));
      assert.equal(failures.length, 2);
      for (const failure of failures) {
        assert.ok(failure instanceof ApiError);
        assert.equal(failure.kind, 'server');
        assert.ok(!`${failure.message} ${failure.serverMessage} ${failure.stack}`.includes(LLM_KEY));
      }
      assert.ok(t.logs.length >= 2);
      assert.ok(!JSON.stringify(t.logs).includes(LLM_KEY), 'no log line holds the key');
    });
  });

  describe('behind a session key', () => {
    const t = useTestServer({ legacySettingsRoutes: false, sessionApiKey: 'session-key-setup-1' });

    it('a wrong key is unauthorized (not "not offered"), and the LLM key is in no error or log', async () => {
      const client = t.newClient({ apiKey: 'wrong-session-key', logBodies: true });
      await assert.rejects(client.modelSetup.saveModelSettings({ apiKey: LLM_KEY }), (e: ApiError) => {
        assert.equal(e.kind, 'unauthorized');
        assert.ok(!e.message.includes(LLM_KEY));
        return true;
      });
      await assert.rejects(client.modelSetup.listProfiles(), (e: ApiError) => e.kind === 'unauthorized');
      assert.ok(!JSON.stringify(t.logs).includes(LLM_KEY));
    });
  });

  describe('a server before 1.11 (legacy /api/settings only)', () => {
    const t = useTestServer({ routesSince1_11: false });

    it('reads and saves the model on the legacy route, top-level fields', async () => {
      const settings = stored(await t.client.modelSetup.readModelSettings());
      assert.equal(settings.generation, 'legacy');
      assert.equal(settings.model, 'anthropic/claude-sonnet-4-5-20250929');
      await t.client.modelSetup.saveModelSettings({ model: 'openai/gpt-4o', apiKey: LLM_KEY }, settings);
      assert.deepEqual(t.server.requests.at(-1)?.body, { llm_model: 'openai/gpt-4o', llm_api_key: LLM_KEY });
      assert.equal(settings.condenserEnabled, true);
      await t.client.modelSetup.saveModelSettings({ condenserEnabled: false }, settings);
      assert.deepEqual(t.server.requests.at(-1)?.body, { enable_default_condenser: false });
      assert.equal(t.server.state.settings?.enable_default_condenser, false);
      assert.equal(t.server.state.settings?.llm_model, 'openai/gpt-4o');
    });

    it('the catalogue, profiles and switch_profile are not offered, and nothing is written', async () => {
      const api = t.client.modelSetup;
      const before = structuredClone(t.server.state.settings);
      assert.deepEqual(await api.searchModels(), { offered: false });
      assert.deepEqual(await api.searchProviders(), { offered: false });
      assert.deepEqual(await api.listProfiles(), { offered: false });
      assert.deepEqual(await api.getProfile('fast'), { offered: false });
      assert.deepEqual(await api.saveProfile('fast', { model: 'm', apiKey: LLM_KEY }), { offered: false });
      assert.deepEqual(await api.activateProfile('fast'), { offered: false });
      assert.deepEqual(await api.renameProfile('fast', 'quick'), { offered: false });
      assert.deepEqual(await api.deleteProfile('fast'), { offered: false });
      assert.deepEqual(await api.switchProfile('0'.repeat(32), 'fast'), { offered: false });
      assert.deepEqual(t.server.state.settings, before);
    });
  });
});
