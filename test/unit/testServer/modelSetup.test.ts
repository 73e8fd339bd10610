// The model catalogue, LLM profiles and switch_profile as openhands-ai 1.11.0 serves them; each rule
// quotes the installed source (app_server/config_api/*, app_server/settings/settings_router.py,
// llm_profiles.py, app_conversation/app_conversation_router.py).
import assert from 'node:assert/strict';
import type { TestServer } from '../../server';
import { getJson, postJson, startFastServer } from './helpers';

interface Page<T> {
  items: T[];
  next_page_id: string | null;
}
interface Model {
  provider: string | null;
  name: string;
  verified: boolean;
  hidden: boolean;
}
interface ProfileList {
  profiles: { name: string; model: string; base_url: string | null; api_key_set: boolean }[];
  active_profile: string | null;
}

async function send<T>(url: string, method: string, body?: unknown) {
  return getJson<T>(url, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe('test server: model catalogue, LLM profiles and switch_profile (openhands-ai 1.11.0)', () => {
  let server: TestServer;
  let api: string;
  before(async () => {
    server = await startFastServer({ seed: { sandboxes: 1, conversations: 1 } });
    api = `${server.url}/api/v1`;
  });
  after(() => server.close());
  beforeEach(() => server.reset());

  describe('config/models/search and config/providers/search', () => {
    it('pages 50 by default with an opaque base64 page id, `null` on the last page', async () => {
      server.state.modelCatalogue = Array.from({ length: 120 }, (_, i) => `p/m${String(i).padStart(3, '0')}`);
      const first = await getJson<Page<Model>>(`${api}/config/models/search`);
      assert.equal(first.body.items.length, 50);
      // paging_utils.encode_page_id: urlsafe base64 of the offset, without padding
      assert.equal(first.body.next_page_id, Buffer.from('50').toString('base64url'));
      const last = await getJson<Page<Model>>(
        `${api}/config/models/search?limit=100&page_id=${first.body.next_page_id}`,
      );
      assert.equal(last.body.items.length, 70);
      assert.equal(last.body.next_page_id, null);
      // a page id that does not decode restarts at 0
      const bad = await getJson<Page<Model>>(`${api}/config/models/search?page_id=zz!`);
      assert.equal(bad.body.items[0]?.name, 'm000');
    });

    it('limit is gt 0 and le 100 (a 422 outside)', async () => {
      const over = await getJson<{ detail: { type: string; loc: string[] }[] }>(
        `${api}/config/models/search?limit=101`,
      );
      assert.equal(over.status, 422);
      assert.deepEqual(over.body.detail[0]?.loc, ['query', 'limit']);
      assert.equal((await getJson(`${api}/config/providers/search?limit=0`)).status, 422);
    });

    it('filters by name, verified and provider; a model is verified when the SDK lists it', async () => {
      const sonnet = await getJson<Page<Model>>(
        `${api}/config/models/search?query=SONNET&provider__eq=anthropic`,
      );
      assert.deepEqual(
        sonnet.body.items.map((m) => [m.provider, m.name, m.verified, m.hidden]),
        [
          ['anthropic', 'claude-sonnet-4-5-20250929', true, false],
          ['anthropic', 'claude-sonnet-4-6', true, false],
        ],
      );
      const unverified = await getJson<Page<Model>>(
        `${api}/config/models/search?verified__eq=false&limit=100`,
      );
      assert.ok(unverified.body.items.every((m) => !m.verified));
      assert.ok(unverified.body.items.some((m) => m.name === 'gpt-3.5-turbo'));
    });

    it('providers: verified first with openhands leading, then the rest by name', async () => {
      const providers = await getJson<Page<{ name: string; verified: boolean }>>(
        `${api}/config/providers/search`,
      );
      assert.deepEqual(
        providers.body.items.map((p) => `${p.name}:${p.verified}`),
        [
          'openhands:true',
          'anthropic:true',
          'deepseek:true',
          'gemini:true',
          'mistral:true',
          'openai:true',
          'cohere:false',
          'ollama:false',
          'openrouter:false',
        ],
      );
    });
  });

  describe('settings/profiles', () => {
    it('lists nothing (200, not 404) before settings exist; saving then is a 404 "Settings not found"', async () => {
      server.state.settings = null;
      const list = await getJson<ProfileList>(`${api}/settings/profiles`);
      assert.deepEqual(list.body, { profiles: [], active_profile: null });
      const save = await postJson(`${api}/settings/profiles/work`, { llm: { model: 'openai/gpt-4o' } });
      assert.equal(save.status, 404);
      assert.deepEqual(save.body, { detail: 'Settings not found' });
    });

    it('save is a 201; a saved key shows only as api_key_set; GET nulls config.api_key', async () => {
      const saved = await postJson(`${api}/settings/profiles/work`, {
        llm: { model: 'openai/gpt-4o', api_key: 'sk-profile-secret', base_url: null },
      });
      assert.equal(saved.status, 201);
      assert.deepEqual(saved.body, { name: 'work', message: "Profile 'work' saved" });
      const list = await getJson<ProfileList>(`${api}/settings/profiles`);
      assert.deepEqual(list.body.profiles, [
        { name: 'work', model: 'openai/gpt-4o', base_url: null, api_key_set: true },
      ]);
      const one = await getJson<{ config: { api_key: unknown }; api_key_set: boolean }>(
        `${api}/settings/profiles/work`,
      );
      assert.equal(one.body.config.api_key, null);
      assert.equal(one.body.api_key_set, true);
      assert.ok(!JSON.stringify((await getJson(`${api}/settings`)).body).includes('sk-profile-secret'));
    });

    it('without llm the settings model is snapshotted; llm without a key keeps the stored key', async () => {
      await postJson(`${api}/settings/profiles/snap`, {});
      const snap = await getJson<{ config: { model: string }; api_key_set: boolean }>(
        `${api}/settings/profiles/snap`,
      );
      assert.equal(snap.body.config.model, 'anthropic/claude-sonnet-4-5-20250929');
      assert.equal(snap.body.api_key_set, true);
      await postJson(`${api}/settings/profiles/snap`, { llm: { model: 'openai/gpt-4o' } });
      assert.equal(server.state.settings?.llm_profiles?.profiles.snap?.api_key, 'sk-ant-test-not-a-real-key');
    });

    it('StrictLLM refuses an unknown field (422); a bad name is a 422 on the path; the eleventh is a 409', async () => {
      const extra = await postJson<{ detail: { type: string; loc: string[] }[] }>(
        `${api}/settings/profiles/x`,
        {
          llm: { model: 'm', custom_header: 'x' },
        },
      );
      assert.equal(extra.status, 422);
      assert.deepEqual(extra.body.detail[0], {
        type: 'extra_forbidden',
        loc: ['body', 'llm', 'custom_header'],
        msg: 'Extra inputs are not permitted',
        input: 'x',
      });
      const badName = await postJson<{ detail: { type: string; loc: string[] }[] }>(
        `${api}/settings/profiles/a%20b`,
        {},
      );
      assert.equal(badName.status, 422);
      assert.deepEqual(badName.body.detail[0]?.loc, ['path', 'name']);
      for (let i = 0; i < 10; i++) await postJson(`${api}/settings/profiles/p${i}`, {});
      const eleventh = await postJson<{ detail: string }>(`${api}/settings/profiles/p10`, {});
      assert.equal(eleventh.status, 409);
      assert.match(eleventh.body.detail, /Profile limit reached \(10\)/);
      // overwriting one that exists is not a new one
      assert.equal((await postJson(`${api}/settings/profiles/p3`, {})).status, 201);
    });

    it('activate switches the settings model; a settings change clears the active marker', async () => {
      await postJson(`${api}/settings/profiles/fast`, {
        llm: { model: 'openai/gpt-4o', api_key: 'sk-fast-key' },
      });
      const activated = await postJson(`${api}/settings/profiles/fast/activate`, {});
      assert.deepEqual(activated.body, {
        name: 'fast',
        message: "Switched to profile 'fast'",
        model: 'openai/gpt-4o',
      });
      const settings = await getJson<{
        agent_settings: { llm: { model: string } };
        llm_profiles: { active: string };
      }>(`${api}/settings`);
      assert.equal(settings.body.agent_settings.llm.model, 'openai/gpt-4o');
      assert.equal(settings.body.llm_profiles.active, 'fast');
      await postJson(`${api}/settings`, { agent_settings_diff: { llm: { model: 'openai/gpt-5.5' } } });
      assert.equal((await getJson<ProfileList>(`${api}/settings/profiles`)).body.active_profile, null);
      assert.equal((await postJson(`${api}/settings/profiles/nope/activate`, {})).status, 404);
    });

    it('rename keeps the slot and the active marker; 404 unknown, 409 taken; delete is idempotent and promotes', async () => {
      await postJson(`${api}/settings/profiles/a`, {});
      await postJson(`${api}/settings/profiles/b`, { llm: { model: 'openai/gpt-4o' } });
      await postJson(`${api}/settings/profiles/a/activate`, {});
      const renamed = await postJson(`${api}/settings/profiles/a/rename`, { new_name: 'c' });
      assert.deepEqual(renamed.body, { name: 'c', message: "Profile 'a' renamed to 'c'" });
      let list = (await getJson<ProfileList>(`${api}/settings/profiles`)).body;
      assert.deepEqual(
        list.profiles.map((p) => p.name),
        ['c', 'b'],
      );
      assert.equal(list.active_profile, 'c');
      assert.equal((await postJson(`${api}/settings/profiles/zz/rename`, { new_name: 'y' })).status, 404);
      assert.equal((await postJson(`${api}/settings/profiles/c/rename`, { new_name: 'b' })).status, 409);
      assert.equal((await send(`${api}/settings/profiles/c`, 'DELETE')).status, 200);
      list = (await getJson<ProfileList>(`${api}/settings/profiles`)).body;
      // Settings.delete_profile: the first left becomes active
      assert.equal(list.active_profile, 'b');
      assert.equal(server.state.settings?.llm_model, 'openai/gpt-4o');
      const again = await send(`${api}/settings/profiles/c`, 'DELETE');
      assert.deepEqual([again.status, again.body], [200, { name: 'c', message: "Profile 'c' deleted" }]);
    });
  });

  describe('app-conversations/{id}/switch_profile', () => {
    it('switches a running conversation; 404 for an unknown profile or conversation; 409 when paused', async () => {
      const conversation = server.state.conversations[0];
      const sandbox = server.state.sandboxes[0];
      assert.ok(conversation && sandbox);
      sandbox.status = 'RUNNING';
      const url = `${api}/app-conversations/${conversation.id}/switch_profile`;
      const unknown = await postJson<{ detail: string }>(url, { profile_name: 'fast' });
      assert.deepEqual([unknown.status, unknown.body.detail], [404, "Profile 'fast' not found"]);
      await postJson(`${api}/settings/profiles/fast`, { llm: { model: 'openai/gpt-4o' } });
      const ok = await postJson(url, { profile_name: 'fast' });
      assert.deepEqual([ok.status, ok.body], [200, { success: true }]);
      assert.equal(conversation.llm_model, 'openai/gpt-4o');
      const noConversation = await postJson(`${api}/app-conversations/${'0'.repeat(32)}/switch_profile`, {
        profile_name: 'fast',
      });
      assert.equal(noConversation.status, 404);
      sandbox.status = 'PAUSED';
      assert.equal((await postJson(url, { profile_name: 'fast' })).status, 409);
      assert.equal((await postJson(url, { profile_name: '' })).status, 422);
    });

    it('the agent server emits the new agent as an `agent` state update, its LLM under the profile’s usage id', async () => {
      const conversation = server.state.conversations[0];
      const sandbox = server.state.sandboxes[0];
      assert.ok(conversation && sandbox);
      sandbox.status = 'RUNNING';
      await postJson(`${api}/settings/profiles/fast`, { llm: { model: 'openai/gpt-4o' } });
      const url = `${api}/app-conversations/${conversation.id}/switch_profile`;
      assert.equal((await postJson(url, { profile_name: 'fast' })).status, 200);
      const agentUpdates = () =>
        server.agent
          .events(conversation.id)
          .filter((event) => event.kind === 'ConversationStateUpdateEvent' && event['key'] === 'agent');
      const [update, ...more] = agentUpdates();
      assert.deepEqual(more, []);
      const llm = (update?.['value'] as { llm: { model: string; usage_id: string; api_key: string } }).llm;
      assert.equal(llm.model, 'openai/gpt-4o');
      // app_conversation_router.py: `profile:<name>:<sha1 of the resolved LLM>[:12]`
      assert.match(llm.usage_id, /^profile:fast:[0-9a-f]{12}$/);
      assert.equal(llm.api_key, '**********');
      // the same profile again: the SDK's state callback fires only for a changed field
      assert.equal((await postJson(url, { profile_name: 'fast' })).status, 200);
      assert.equal(agentUpdates().length, 1);
    });
  });
});
