// The MCP & Git Providers form against a server shaped like openhands-ai 1.11.0: no legacy /api routes,
// settings at /api/v1/settings with the MCP servers as a name map in agent_settings, secrets never read back.
import assert from 'node:assert/strict';
import { SyncService } from '../../../src/webviews/mcpForm/host/syncService';
import { useTestServer } from '../api/harness';
import {
  calls,
  draft,
  fullDraft,
  idSequence,
  keep,
  MemoryFormStorage,
  MemoryLog,
  none,
  replace,
  saved,
  STRINGS,
} from './fixtures';

const SECRETS = ['ghp_valid_new', 'sse-key-1', 'http-key-2', 'env-secret-3'];

describe('mcpForm save and sync against openhands-ai 1.11 (settings under /api/v1)', () => {
  const t = useTestServer({ legacySettingsRoutes: false });
  let store: MemoryFormStorage;
  let log: MemoryLog;
  let service: SyncService;
  beforeEach(() => {
    store = new MemoryFormStorage();
    log = new MemoryLog();
    service = new SyncService(store, log, () => STRINGS, idSequence());
  });

  it('finds the /api/v1 routes, stores tokens there, and writes the MCP servers as agent_settings_diff.mcp_config', async () => {
    t.server.requests.length = 0;
    const result = saved(await service.save(t.server.url, fullDraft(t.server.url), t.client));
    assert.deepEqual(result.outcome.tokens, { status: 'synced' });
    assert.deepEqual(result.outcome.mcp, { status: 'synced', via: 'settings' });
    assert.equal(t.client.settingsGeneration, 'v1');
    assert.deepEqual(calls(t.server.requests), [
      'GET /api/settings',
      'GET /api/v1/settings',
      'POST /api/v1/secrets/git-providers',
      'GET /api/v1/settings',
      'POST /api/v1/settings',
      'GET /api/v1/settings',
    ]);
    const tokens = t.server.requests.find((r) => r.path === '/api/v1/secrets/git-providers')?.body;
    assert.deepEqual(tokens, {
      provider_tokens: { github: { token: 'ghp_valid_new', host: null } },
      mcp_config: null,
    });
    const posted = t.server.requests.find((r) => r.method === 'POST' && r.path === '/api/v1/settings')?.body;
    assert.deepEqual(posted, {
      agent_settings_diff: {
        mcp_config: {
          fetch: { command: 'uvx', args: ['mcp-server-fetch'], env: { TOKEN: 'env-secret-3' } },
          'sse-example-com': { url: 'https://sse.example.com/sse', transport: 'sse', api_key: 'sse-key-1' },
          'http-example-com': {
            url: 'https://http.example.com/mcp',
            transport: 'streamable-http',
            timeout: 90,
            api_key: 'http-key-2',
          },
        },
      },
    });
    // The server holds every secret; it only never sends them back.
    const stored = t.server.state.settings?.v1_mcp_servers;
    assert.deepEqual(stored?.['sse-example-com']?.auth, { strategy: 'api_key', value: 'sse-key-1' });
    assert.deepEqual(stored?.fetch?.env, { TOKEN: 'env-secret-3' });
    assert.equal(t.server.state.providerTokens.github?.token, 'ghp_valid_new');
    for (const secret of SECRETS) assert.ok(!log.lines.join('\n').includes(secret), `log holds ${secret}`);
  });

  it('a load keeps the secrets the server no longer reads back, and a save with nothing changed sends nothing', async () => {
    saved(await service.save(t.server.url, fullDraft(t.server.url), t.client));
    const loaded = await service.load(t.server.url, t.client);
    const sse = loaded.config.mcp.sse[0];
    const stdio = loaded.config.mcp.stdio[0];
    assert.ok(sse && stdio);
    assert.equal(loaded.secrets.apiKeys[sse.id], 'sse-key-1');
    assert.deepEqual(
      stdio.env.map((row) => row.name),
      ['TOKEN'],
      'env rows survive a read that has none',
    );
    assert.deepEqual(Object.values(loaded.secrets.env[stdio.id] ?? {}), ['env-secret-3']);
    t.server.requests.length = 0;
    // the form as it opens on what was loaded: every secret "set", nothing typed
    const unchanged = draft({
      serverUrl: t.server.url,
      providers: [
        { provider: 'github', host: '', token: keep },
        { provider: 'gitlab', host: '', token: none },
        { provider: 'bitbucket', host: '', token: none },
      ],
      mcp: {
        sse: [{ id: sse.id, url: sse.url, apiKey: keep }],
        shttp: loaded.config.mcp.shttp.map((e) => ({
          id: e.id,
          url: e.url,
          apiKey: keep,
          timeout: String(e.timeout),
        })),
        stdio: [
          {
            id: stdio.id,
            name: stdio.name,
            command: stdio.command,
            args: stdio.args,
            env: stdio.env.map((row) => ({ id: row.id, name: row.name, value: keep })),
          },
        ],
      },
    });
    const again = saved(await service.save(t.server.url, unchanged, t.client));
    assert.deepEqual(again.outcome.mcp, { status: 'unchanged' });
    assert.deepEqual(calls(t.server.requests), []);
  });

  it('a token the provider rejects is shown at its field with the server message; MCP still syncs', async () => {
    const form = fullDraft(t.server.url);
    form.providers[0] = { provider: 'github', host: '', token: replace('bad-github-token') };
    const result = saved(await service.save(t.server.url, form, t.client));
    assert.equal(result.outcome.tokens.status, 'failed');
    assert.match(result.fieldErrors['providers.github.token'] ?? '', /Invalid token.*github token/);
    assert.deepEqual(result.outcome.mcp, { status: 'synced', via: 'settings' });
  });

  it('refuses to send a server it holds a key for without that key (the save replaces the whole map)', async () => {
    await t.client.storeSettings({
      agent_settings_diff: {
        mcp_config: {
          'team-docs': { url: 'https://docs.example.com/mcp', transport: 'http', api_key: 'SERVER-ONLY-KEY' },
        },
      },
    });
    const loaded = await service.load(t.server.url, t.client);
    const docs = loaded.config.mcp.shttp[0];
    assert.ok(docs);
    const form = draft({
      serverUrl: t.server.url,
      mcp: {
        shttp: [{ id: docs.id, url: docs.url, apiKey: none, timeout: '' }],
        stdio: [{ id: null, name: 'git', command: 'uvx', args: ['mcp-server-git'], env: [] }],
      },
    });
    const result = saved(await service.save(t.server.url, form, t.client));
    assert.equal(result.outcome.mcp.status, 'failed');
    assert.equal(result.fieldErrors['mcp.shttp.0.apiKey'], STRINGS.errServerOnlyKey);
    assert.deepEqual(t.server.state.settings?.v1_mcp_servers?.['team-docs']?.auth, {
      strategy: 'api_key',
      value: 'SERVER-ONLY-KEY',
    });
  });

  it('a passing failure of the legacy route does not tie the client to it', async () => {
    t.server.faults.add({
      kind: 'status',
      status: 503,
      body: { detail: 'busy' },
      match: { path: '/api/settings' },
      times: 1,
    });
    await assert.rejects(t.client.getSettings(), (error: { status?: number }) => error.status === 503);
    const settings = await t.client.getSettings();
    assert.equal(t.client.settingsGeneration, 'v1');
    assert.ok(settings.agent_settings);
  });

  it('keeps the names the server gave its remote servers', async () => {
    await t.client.storeSettings({
      agent_settings_diff: {
        mcp_config: { 'team-docs': { url: 'https://docs.example.com/mcp', transport: 'http' } },
      },
    });
    const loaded = await service.load(t.server.url, t.client);
    assert.equal(loaded.config.mcp.shttp[0]?.url, 'https://docs.example.com/mcp');
    const form = draft({
      serverUrl: t.server.url,
      mcp: {
        shttp: [
          {
            id: loaded.config.mcp.shttp[0]?.id ?? null,
            url: 'https://docs.example.com/mcp',
            apiKey: none,
            timeout: '',
          },
        ],
        stdio: [{ id: null, name: 'git', command: 'uvx', args: ['mcp-server-git'], env: [] }],
      },
    });
    const result = saved(await service.save(t.server.url, form, t.client));
    assert.deepEqual(result.outcome.mcp, { status: 'synced', via: 'settings' });
    assert.deepEqual(Object.keys(t.server.state.settings?.v1_mcp_servers ?? {}).sort(), ['git', 'team-docs']);
  });
});
