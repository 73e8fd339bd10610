// The openhands-ai 1.11.0 settings and secrets routes, as the real server answered them under test:real.
import assert from 'node:assert/strict';
import type { TestServer } from '../../server';
import { getJson, postJson, startFastServer } from './helpers';
import { eventuallyDefined } from '../../shared/eventually';

interface V1Settings {
  agent_settings: {
    llm: { model: string | null; base_url: string | null; api_key: null };
    mcp_config: unknown;
  };
  provider_tokens_set: Record<string, string | null>;
  llm_api_key_set: boolean;
}

describe('test server: /api/v1/settings and /api/v1/secrets/git-providers (openhands-ai 1.11.0)', () => {
  let server: TestServer;
  before(async () => {
    server = await startFastServer({ seed: { sandboxes: 1, conversations: 1 } });
  });
  after(() => server.close());
  beforeEach(() => server.reset());

  it('GET is 404 "Settings not found" before anything is stored; a diff POST creates them', async () => {
    server.state.settings = null;
    const missing = await getJson(`${server.url}/api/v1/settings`);
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { error: 'Settings not found' });
    const stored = await postJson(`${server.url}/api/v1/settings`, {
      agent_settings_diff: {
        llm: { model: 'openai/scripted-llm', base_url: 'http://127.0.0.1:9/v1', api_key: 'k' },
      },
    });
    assert.deepEqual(stored.body, { message: 'Settings stored' });
    const read = await getJson<V1Settings>(`${server.url}/api/v1/settings`);
    assert.deepEqual(read.body.agent_settings.llm, {
      model: 'openai/scripted-llm',
      base_url: 'http://127.0.0.1:9/v1',
      api_key: null,
    });
    assert.equal(read.body.llm_api_key_set, true);
  });

  it('mcp_config replaces the stored map; secrets are not sent back; legacy keys are refused', async () => {
    await postJson(`${server.url}/api/v1/settings`, {
      agent_settings_diff: {
        mcp_config: {
          mcpServers: {
            sse1: { url: 'http://127.0.0.1:9/sse', transport: 'sse', headers: { Authorization: 'Bearer k' } },
            fetch: { command: 'uvx', args: ['mcp-server-fetch'], env: { T: 'secret' } },
          },
        },
      },
    });
    const read = await getJson<V1Settings>(`${server.url}/api/v1/settings`);
    assert.deepEqual(read.body.agent_settings.mcp_config, {
      sse1: { url: 'http://127.0.0.1:9/sse', transport: 'sse', auth: { strategy: 'bearer' } },
      fetch: { command: 'uvx', args: ['mcp-server-fetch'] },
    });
    await postJson(`${server.url}/api/v1/settings`, {
      agent_settings_diff: { mcp_config: { x: { url: 'http://a/b' } } },
    });
    const replaced = await getJson<V1Settings>(`${server.url}/api/v1/settings`);
    assert.deepEqual(replaced.body.agent_settings.mcp_config, { x: { url: 'http://a/b' } });

    const legacy = await postJson(`${server.url}/api/v1/settings`, { agent_settings: {} });
    assert.equal(legacy.status, 422);
    assert.deepEqual(legacy.body, {
      error: 'Use *_diff nested settings payloads instead of legacy keys',
      keys: ['agent_settings'],
    });
    // a legacy top-level mcp_config is not a 1.11 field: ignored, with a 200
    const ignored = await postJson(`${server.url}/api/v1/settings`, { mcp_config: { sse_servers: [] } });
    assert.equal(ignored.status, 200);
    const after = await getJson<V1Settings>(`${server.url}/api/v1/settings`);
    assert.deepEqual(after.body.agent_settings.mcp_config, { x: { url: 'http://a/b' } });
  });

  it('git-providers: the first rejected token is a 401 {"detail"}; valid ones are stored; DELETE unsets', async () => {
    const rejected = await postJson(`${server.url}/api/v1/secrets/git-providers`, {
      provider_tokens: { github: { token: 'bad-token' }, gitlab: { token: 'glpat-ok' } },
    });
    assert.equal(rejected.status, 401);
    assert.deepEqual(rejected.body, {
      detail: 'Invalid token. Please make sure it is a valid github token.',
    });
    const stored = await postJson(`${server.url}/api/v1/secrets/git-providers`, {
      provider_tokens: { github: { token: 'ghp_ok', host: null } },
    });
    assert.deepEqual(stored.body, { message: 'Git providers stored' });
    const read = await getJson<V1Settings>(`${server.url}/api/v1/settings`);
    assert.deepEqual(read.body.provider_tokens_set, { github: null });
    const unset = await getJson(`${server.url}/api/v1/secrets/git-providers`, { method: 'DELETE' });
    assert.deepEqual(unset.body, { message: 'Unset Git provider tokens' });
    assert.deepEqual(server.state.providerTokens, {});
  });

  it('without settings a start still ends READY, on the SDK default model (no settings assert in 1.11.0)', async () => {
    server.state.settings = null;
    const task = await postJson<{ id: string }>(`${server.url}/api/v1/app-conversations`, {});
    const ready = await eventuallyDefined(async () => {
      const reply = await getJson<{ status: string; app_conversation_id: string | null }[]>(
        `${server.url}/api/v1/app-conversations/start-tasks?ids=${task.body.id}`,
      );
      const status = reply.body[0]?.status;
      return status === 'READY' || status === 'ERROR' ? reply.body[0] : undefined;
    });
    assert.equal(ready?.status, 'READY');
    const [conversation] = (
      await getJson<{ llm_model: string }[]>(
        `${server.url}/api/v1/app-conversations?ids=${ready?.app_conversation_id}`,
      )
    ).body;
    assert.equal(conversation?.llm_model, 'gpt-5.5');
  });

  it('is behind SESSION_API_KEY like every /api route', async () => {
    const keyed = await startFastServer({ sessionApiKey: 'k' });
    try {
      assert.equal((await getJson(`${keyed.url}/api/v1/settings`)).status, 401);
      const ok = await getJson(`${keyed.url}/api/v1/settings`, { headers: { 'X-Session-API-Key': 'k' } });
      assert.equal(ok.status, 200);
    } finally {
      await keyed.close();
    }
  });
});
