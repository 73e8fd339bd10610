import assert from 'node:assert/strict';
import type { TestServer } from '../../server';
import { getJson, postJson, startFastServer } from './helpers';

interface SettingsReply {
  provider_tokens_set: Record<string, string | null>;
  mcp_config: { sse_servers: unknown[]; stdio_servers: unknown[]; shttp_servers: unknown[] };
  llm_api_key: string | null;
  llm_api_key_set: boolean;
  language: string | null;
}

describe('test server: git providers and settings', () => {
  let server: TestServer;

  before(async () => {
    server = await startFastServer();
  });
  after(() => server.close());
  beforeEach(() => server.reset());

  const addProviders = (body: unknown) =>
    postJson<{ message?: string; error?: string }>(`${server.url}/api/add-git-providers`, body);

  it('applies the real merge rules', async () => {
    const stored = await addProviders({
      provider_tokens: {
        github: { token: 'ghp_one', host: 'github.com', user_id: 'u1' },
        gitlab: { token: '', host: '' },
      },
    });
    assert.deepEqual(stored.body, { message: 'Git providers stored' });
    assert.deepEqual(
      { ...server.state.providerTokens },
      {
        github: { token: 'ghp_one', host: 'github.com', user_id: 'u1' },
      },
    );

    // Empty token with one stored: keep token and user_id, take the new host (even null).
    await addProviders({
      provider_tokens: {
        github: { token: '', host: null },
        bitbucket: { token: 'bb', host: 'bitbucket.org' },
      },
    });
    assert.deepEqual(server.state.providerTokens.github, { token: 'ghp_one', host: null, user_id: 'u1' });
    assert.equal(server.state.providerTokens.bitbucket?.token, 'bb');

    // Omitted providers are deleted: the whole map is replaced.
    await addProviders({ provider_tokens: { bitbucket: { token: '', host: 'bitbucket.org' } } });
    assert.deepEqual(Object.keys(server.state.providerTokens), ['bitbucket']);

    const settings = await getJson<SettingsReply>(`${server.url}/api/settings`);
    assert.deepEqual(settings.body.provider_tokens_set, { bitbucket: 'bitbucket.org' });
    assert.ok(!JSON.stringify(settings.body).includes('"bb"'), 'token values never leave the server');

    await addProviders({});
    assert.deepEqual({ ...server.state.providerTokens }, {});
  });

  it('rejects tokens the provider refuses, and enterprise_sso tokens, storing nothing', async () => {
    const bad = await addProviders({ provider_tokens: { gitlab: { token: 'bad-token', host: null } } });
    assert.equal(bad.status, 401);
    assert.deepEqual(bad.body, { error: 'Invalid token. Please make sure it is a valid gitlab token.' });
    const sso = await addProviders({ provider_tokens: { enterprise_sso: { token: 'anything' } } });
    assert.equal(sso.status, 401);
    assert.deepEqual({ ...server.state.providerTokens }, {});
  });

  it('validates mcp_config but ignores it on add-git-providers; POST /api/settings merges what is posted', async () => {
    const invalid = await addProviders({
      mcp_config: { stdio_servers: [{ name: 'bad name', command: 'npx' }] },
    });
    assert.equal(invalid.status, 422);
    const ignored = await addProviders({ mcp_config: { sse_servers: ['https://mcp.example.com/sse'] } });
    assert.equal(ignored.status, 200);
    let settings = await getJson<SettingsReply>(`${server.url}/api/settings`);
    assert.deepEqual(settings.body.mcp_config, { sse_servers: [], stdio_servers: [], shttp_servers: [] });

    const { provider_tokens_set: _set, ...current } = settings.body;
    const stored = await postJson(`${server.url}/api/settings`, {
      ...current,
      mcp_config: {
        shttp_servers: ['https://mcp.example.com/mcp'],
        stdio_servers: [{ name: 'fs', command: 'npx', args: '-y @mcp/fs "/a b"' }],
      },
    });
    assert.deepEqual(stored.body, { message: 'Settings stored' });
    settings = await getJson<SettingsReply>(`${server.url}/api/settings`);
    assert.deepEqual(settings.body.mcp_config, {
      sse_servers: [],
      stdio_servers: [{ name: 'fs', command: 'npx', args: ['-y', '@mcp/fs', '/a b'], env: {} }],
      shttp_servers: [{ url: 'https://mcp.example.com/mcp', api_key: null, timeout: 60 }],
    });
    // llm_api_key came back as null, so the stored key was kept.
    assert.equal(settings.body.llm_api_key, null);
    assert.equal(settings.body.llm_api_key_set, true);
    assert.equal(settings.body.language, 'en');

    // A partial POST changes only what it names (OpenHands 1.11 merges with Settings.update).
    const before = structuredClone(server.state.settings);
    await postJson(`${server.url}/api/settings`, { git_user_name: 'someone else' });
    assert.deepEqual(server.state.settings, { ...before, git_user_name: 'someone else' });
  });

  it('can store mcp_config from add-git-providers when configured like a newer server', async () => {
    const newer = await startFastServer({ storeMcpConfigOnAddGitProviders: true });
    try {
      await postJson(`${newer.url}/api/add-git-providers`, {
        mcp_config: { sse_servers: [{ url: 'wss://x.example' }] },
      });
      assert.deepEqual(newer.state.settings?.mcp_config?.sse_servers, [
        { url: 'wss://x.example', api_key: null },
      ]);
    } finally {
      await newer.close();
    }
  });
});
