// The MCP & Git Providers form against a server shaped like openhands-ai 1.11.0: no legacy /api routes,
// settings at /api/v1/settings with the MCP servers as a name map in agent_settings, secrets never read back.
import assert from 'node:assert/strict';
import { entryId } from '../../../../../src/webviews/mcpForm/host/entryIds';
import { FormSave, type SettingsClient } from '../../../../../src/webviews/mcpForm/host/formSave';
import { fieldPath } from '../../../../../src/webviews/mcpForm/shared/fieldPath';
import { useTestServer } from '../../../api/harness';
import {
  assertFreeOf,
  calls,
  clear,
  draft,
  fullDraft,
  FULL_DRAFT_SECRETS,
  MemoryFormStorage,
  MemoryLog,
  freshFormSave,
  none,
  replace,
  saved,
  STRINGS,
  untouched,
} from './fixtures';

describe('mcpForm FormSave against openhands-ai 1.11 (settings under /api/v1)', () => {
  const t = useTestServer({ legacySettingsRoutes: false });
  let store: MemoryFormStorage, log: MemoryLog, form: FormSave;
  beforeEach(() => ({ store, log, form } = freshFormSave()));

  /** An HTTP server with a key, set up outside VS Code (the web UI, another machine). */
  const storeKeyElsewhere = (apiKey: string) =>
    t.client.storeSettings({
      agent_settings_diff: {
        mcp_config: {
          'team-docs': { url: 'https://docs.example.com/mcp', transport: 'http', api_key: apiKey },
        },
      },
    });

  it('finds the /api/v1 routes, stores tokens there, and writes the MCP servers as agent_settings_diff.mcp_config', async () => {
    t.server.requests.length = 0;
    const result = saved(await form.save(t.server.url, fullDraft(t.server.url), t.client));
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
    // So Secret Storage keeps them, by the ids the server's entries derive.
    assert.deepEqual(await store.load(t.server.url), {
      providers: { github: 'ghp_valid_new' },
      apiKeys: {
        [entryId.remote('sse', 'https://sse.example.com/sse')]: 'sse-key-1',
        [entryId.remote('shttp', 'https://http.example.com/mcp')]: 'http-key-2',
      },
      env: { [entryId.stdio('fetch', 'uvx')]: { TOKEN: 'env-secret-3' } },
    });
    // The model read back shows them as set (the env rows from Secret Storage, as 1.11 drops env).
    assert.deepEqual(result.model?.mcp.sse[0]?.apiKey, 'set');
    assert.deepEqual(
      result.model?.mcp.stdio[0]?.env.map((row) => [row.name, row.value]),
      [['TOKEN', 'set']],
    );
    assertFreeOf(result, FULL_DRAFT_SECRETS, 'the save result');
    assertFreeOf(log.lines, FULL_DRAFT_SECRETS, 'the log');
  });

  it('a load shows the secrets the server no longer reads back, and saving it untouched only reads the settings', async () => {
    saved(await form.save(t.server.url, fullDraft(t.server.url), t.client));
    const loaded = await form.load(t.server.url, t.client);
    assert.ok(loaded.model);
    const [sse] = loaded.model.mcp.sse;
    const [stdio] = loaded.model.mcp.stdio;
    assert.ok(sse && stdio);
    assert.equal(sse.apiKey, 'set');
    assert.deepEqual(
      stdio.env.map((row) => [row.name, row.value]),
      [['TOKEN', 'set']],
      'env rows survive a read that has none',
    );
    assertFreeOf(loaded, FULL_DRAFT_SECRETS, 'the model');
    t.server.requests.length = 0;
    const savesBefore = store.saves;
    // the form as it opens on what was loaded: every secret "set", nothing typed
    const again = saved(await form.save(t.server.url, untouched(loaded.model), t.client));
    assert.deepEqual(again.outcome, { tokens: { status: 'unchanged' }, mcp: { status: 'unchanged' } });
    assert.deepEqual(calls(t.server.requests), ['GET /api/v1/settings']);
    assert.equal(store.saves, savesBefore);
  });

  it('an MCP change re-sends the servers kept, with the keys and env only Secret Storage still has', async () => {
    saved(await form.save(t.server.url, fullDraft(t.server.url), t.client));
    // a new panel: nothing carried over in memory, only Secret Storage
    const reopened = new FormSave(store, log, STRINGS);
    const loaded = await reopened.load(t.server.url, t.client);
    assert.ok(loaded.model);
    const edited = untouched(loaded.model);
    edited.mcp.stdio.push({
      id: null,
      name: 'git',
      command: 'uvx',
      args: ['mcp-server-git'],
      env: [{ id: null, name: 'GIT_TOKEN', value: replace('git-secret-4') }],
    });
    t.server.requests.length = 0;
    const result = saved(await reopened.save(t.server.url, edited, t.client));
    assert.deepEqual(result.outcome, {
      tokens: { status: 'unchanged' },
      mcp: { status: 'synced', via: 'settings' },
    });
    assert.deepEqual(calls(t.server.requests), [
      'GET /api/v1/settings',
      'GET /api/v1/settings',
      'POST /api/v1/settings',
      'GET /api/v1/settings',
    ]);
    const servers = t.server.state.settings?.v1_mcp_servers;
    assert.deepEqual(servers?.['sse-example-com']?.auth, { strategy: 'api_key', value: 'sse-key-1' });
    assert.deepEqual(servers?.['http-example-com']?.auth, { strategy: 'api_key', value: 'http-key-2' });
    assert.deepEqual(servers?.fetch?.env, { TOKEN: 'env-secret-3' });
    assert.deepEqual(servers?.git?.env, { GIT_TOKEN: 'git-secret-4' });
    assert.deepEqual((await store.load(t.server.url)).env, {
      [entryId.stdio('fetch', 'uvx')]: { TOKEN: 'env-secret-3' },
      [entryId.stdio('git', 'uvx')]: { GIT_TOKEN: 'git-secret-4' },
    });
    assertFreeOf(result, [...FULL_DRAFT_SECRETS, 'git-secret-4'], 'the save result');
  });

  it('a token the provider rejects is shown at its field with the server message; MCP still saves', async () => {
    const form2 = fullDraft(t.server.url);
    form2.providers[0] = { provider: 'github', host: '', token: replace('bad-github-token') };
    const result = saved(await form.save(t.server.url, form2, t.client));
    assert.equal(result.outcome.tokens.status, 'failed');
    assert.match(result.fieldErrors[fieldPath.providerToken('github')] ?? '', /Invalid token.*github token/);
    assert.deepEqual(result.outcome.mcp, { status: 'synced', via: 'settings' });
    assert.deepEqual(t.server.state.providerTokens, {});
    assert.deepEqual((await store.load(t.server.url)).providers, {});
    assertFreeOf(result, ['bad-github-token'], 'the save result');
    assertFreeOf(log.lines, ['bad-github-token'], 'the log');
  });

  it('refuses to send a server it holds a key for without that key (the save replaces the whole map), but only when MCP changes', async () => {
    await storeKeyElsewhere('SERVER-ONLY-KEY');
    const loaded = await form.load(t.server.url, t.client);
    assert.ok(loaded.model);
    assert.equal(loaded.model.mcp.shttp[0]?.apiKey, 'set');
    const changed = untouched(loaded.model);
    changed.mcp.stdio.push({ id: null, name: 'git', command: 'uvx', args: ['mcp-server-git'], env: [] });
    t.server.requests.length = 0;
    const refused = await form.save(t.server.url, changed, t.client);
    assert.deepEqual(refused, {
      kind: 'invalid',
      errors: { [fieldPath.apiKey('shttp', 0)]: STRINGS.errServerOnlyKey },
    });
    assert.deepEqual(calls(t.server.requests), ['GET /api/v1/settings'], 'nothing written');

    // The same server, untouched, next to a token change: nothing of MCP is sent, so nothing is lost.
    const tokenOnly = untouched(loaded.model);
    tokenOnly.providers[0] = { provider: 'github', host: '', token: replace('ghp_valid_new') };
    const result = saved(await form.save(t.server.url, tokenOnly, t.client));
    assert.deepEqual(result.outcome, { tokens: { status: 'synced' }, mcp: { status: 'unchanged' } });
    assert.deepEqual(t.server.state.settings?.v1_mcp_servers?.['team-docs']?.auth, {
      strategy: 'api_key',
      value: 'SERVER-ONLY-KEY',
    });
  });

  it('clearing a key removes it from the server and from Secret Storage; the others stay', async () => {
    saved(await form.save(t.server.url, fullDraft(t.server.url), t.client));
    const loaded = await form.load(t.server.url, t.client);
    assert.ok(loaded.model);
    const cleared = untouched(loaded.model);
    cleared.mcp.sse[0] = { ...cleared.mcp.sse[0]!, apiKey: clear };
    const result = saved(await form.save(t.server.url, cleared, t.client));
    assert.deepEqual(result.outcome.mcp, { status: 'synced', via: 'settings' });
    const servers = t.server.state.settings?.v1_mcp_servers;
    assert.equal(servers?.['sse-example-com']?.auth, undefined);
    assert.deepEqual(servers?.['http-example-com']?.auth, { strategy: 'api_key', value: 'http-key-2' });
    assert.deepEqual(servers?.fetch?.env, { TOKEN: 'env-secret-3' });
    assert.equal(result.model?.mcp.sse[0]?.apiKey, 'unset');
    assert.deepEqual(Object.values((await store.load(t.server.url)).apiKeys), ['http-key-2']);
  });

  it('clearing a key only the server holds (set elsewhere) removes it, as the only change', async () => {
    await storeKeyElsewhere('SERVER-ONLY-KEY');
    const loaded = await form.load(t.server.url, t.client);
    assert.ok(loaded.model);
    const cleared = untouched(loaded.model);
    cleared.mcp.shttp[0] = { ...cleared.mcp.shttp[0]!, apiKey: clear };
    const result = saved(await form.save(t.server.url, cleared, t.client));
    assert.deepEqual(result.outcome.mcp, { status: 'synced', via: 'settings' });
    assert.equal(t.server.state.settings?.v1_mcp_servers?.['team-docs']?.auth, undefined);
    assert.equal(result.model?.mcp.shttp[0]?.apiKey, 'unset');
  });

  it('a key another client set after the form opened is never dropped by a save that showed none', async () => {
    const opened = await form.load(t.server.url, t.client);
    assert.ok(opened.model);
    await storeKeyElsewhere('SET-MEANWHILE');
    // the webview never saw the key: its entry is "unset", and the save adds a stdio server
    const draftNow = untouched((await form.load(t.server.url, t.client)).model!);
    draftNow.mcp.shttp[0] = { ...draftNow.mcp.shttp[0]!, apiKey: none };
    draftNow.mcp.stdio.push({ id: null, name: 'git', command: 'uvx', args: [], env: [] });
    const refused = await form.save(t.server.url, draftNow, t.client);
    assert.deepEqual(refused, {
      kind: 'invalid',
      errors: { [fieldPath.apiKey('shttp', 0)]: STRINGS.errServerOnlyKey },
    });
    assert.deepEqual(t.server.state.settings?.v1_mcp_servers?.['team-docs']?.auth, {
      strategy: 'api_key',
      value: 'SET-MEANWHILE',
    });
  });

  it('a write the server accepted whose read-back fails is saved: its secrets are kept, the form is told to reload', async () => {
    const client: SettingsClient = {
      getSettings: () => t.client.getSettings(),
      storeProviderTokens: (body) => t.client.storeProviderTokens(body),
      storeSettings: async (body) => {
        const reply = await t.client.storeSettings(body);
        // the next reads fail: the server answered the write, then went away
        t.server.faults.add({
          kind: 'status',
          status: 503,
          body: { detail: 'busy' },
          match: { method: 'GET', path: '/api/v1/settings' },
          times: 2,
        });
        return reply;
      },
    };
    const stdio = {
      id: null,
      name: 'x',
      command: 'uvx',
      args: [],
      env: [{ id: null, name: 'TOKEN', value: replace('env-value-789') }],
    };
    const result = saved(
      await form.save(t.server.url, draft({ serverUrl: t.server.url, mcp: { stdio: [stdio] } }), client),
    );
    assert.deepEqual(result.outcome.mcp, { status: 'synced', via: 'settings' });
    assert.equal(result.model, null);
    assert.equal(result.loadProblem, STRINGS.errReadBack);
    assert.deepEqual((await store.load(t.server.url)).env, {
      [entryId.stdio('x', 'uvx')]: { TOKEN: 'env-value-789' },
    });
    // so a later save still sends the env the server holds
    const loaded = await form.load(t.server.url, t.client);
    const edited = untouched(loaded.model!);
    edited.mcp.sse.push({ id: null, url: 'https://b.example.com/sse', apiKey: none });
    saved(await form.save(t.server.url, edited, t.client));
    assert.deepEqual(t.server.state.settings?.v1_mcp_servers?.x?.env, { TOKEN: 'env-value-789' });
  });

  it('a stdio server set up elsewhere: its env is marked hidden; one VS Code saved is not handed to a namesake', async () => {
    const env = [{ id: null, name: 'TOKEN', value: replace('env-secret-1') }];
    const fetch = { id: null, name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'], env };
    saved(
      await form.save(t.server.url, draft({ serverUrl: t.server.url, mcp: { stdio: [fetch] } }), t.client),
    );
    const mine = await form.load(t.server.url, t.client);
    assert.equal(mine.model?.mcp.stdio[0]?.envHidden, false);
    assert.equal(mine.model?.mcp.stdio[0]?.env[0]?.value, 'set');

    // replaced elsewhere by another server of the same name
    await t.client.storeSettings({
      agent_settings_diff: {
        mcp_config: { fetch: { command: 'npx', args: ['some-other-tool'], env: { OTHER: 'x' } } },
      },
    });
    const loaded = await form.load(t.server.url, t.client);
    assert.deepEqual(loaded.model?.mcp.stdio[0]?.env, [], 'no env borrowed from the earlier fetch');
    assert.equal(loaded.model?.mcp.stdio[0]?.envHidden, true);
    const edited = untouched(loaded.model!);
    edited.mcp.sse.push({ id: null, url: 'https://b.example.com/sse', apiKey: none });
    saved(await form.save(t.server.url, edited, t.client));
    assert.ok(!JSON.stringify(t.server.state.settings?.v1_mcp_servers).includes('env-secret-1'));
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
    const loaded = await form.load(t.server.url, t.client);
    assert.ok(loaded.model);
    assert.equal(loaded.model.mcp.shttp[0]?.url, 'https://docs.example.com/mcp');
    assert.equal(loaded.model.mcp.shttp[0]?.apiKey, 'unset');
    const edited = draft({
      serverUrl: t.server.url,
      providers: untouched(loaded.model).providers,
      mcp: {
        shttp: [
          {
            id: loaded.model.mcp.shttp[0]?.id ?? null,
            url: 'https://docs.example.com/mcp',
            apiKey: none,
            timeout: '',
          },
        ],
        stdio: [{ id: null, name: 'git', command: 'uvx', args: ['mcp-server-git'], env: [] }],
      },
    });
    const result = saved(await form.save(t.server.url, edited, t.client));
    assert.deepEqual(result.outcome.mcp, { status: 'synced', via: 'settings' });
    assert.deepEqual(Object.keys(t.server.state.settings?.v1_mcp_servers ?? {}).sort(), ['git', 'team-docs']);
  });

  it('a fresh server (no settings yet) fails both parts with advice', async () => {
    t.server.state.settings = null;
    const form2 = draft({
      serverUrl: t.server.url,
      providers: [
        { provider: 'github', host: '', token: replace('ghp_valid_new') },
        { provider: 'gitlab', host: '', token: none },
        { provider: 'bitbucket', host: '', token: none },
      ],
    });
    const result = saved(await form.save(t.server.url, form2, t.client));
    assert.deepEqual(result.outcome.tokens, { status: 'failed', message: STRINGS.errNoSettings });
    assert.deepEqual(result.outcome.mcp, { status: 'failed', message: STRINGS.errNoSettings });
    assert.equal(store.saves, 0);
    assert.deepEqual(t.server.state.providerTokens, {});
  });
});
