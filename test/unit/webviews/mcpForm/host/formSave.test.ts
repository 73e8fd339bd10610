// The MCP & Git Providers form's load and save against the test server with the legacy routes
// (/api/settings, /api/add-git-providers): what is sent, what the server ends up holding, and what
// is kept in Secret Storage.
import assert from 'node:assert/strict';
import { OpenHandsClient } from '../../../../../src/api';
import { entryId } from '../../../../../src/webviews/mcpForm/host/entryIds';
import { FormSave } from '../../../../../src/webviews/mcpForm/host/formSave';
import { fieldPath } from '../../../../../src/webviews/mcpForm/shared/fieldPath';
import type { RecordedRequest } from '../../../../server';
import { useTestServer } from '../../../api/harness';
import {
  assertFreeOf,
  calls,
  clear,
  draft,
  fullDraft,
  FULL_DRAFT_SECRETS,
  keep,
  MemoryFormStorage,
  MemoryLog,
  freshFormSave,
  none,
  replace,
  saved,
  STRINGS,
  untouched,
} from './fixtures';

function bodyOf(requests: RecordedRequest[], method: string, path: string): Record<string, unknown> {
  const found = requests.filter((r) => r.method === method && r.path === path);
  assert.equal(found.length, 1, `${found.length} × ${method} ${path}`);
  const body = found[0]?.body;
  assert.ok(body && typeof body === 'object');
  return body as Record<string, unknown>;
}

/** A client for a port nothing listens on. */
function unreachableClient(): OpenHandsClient {
  return new OpenHandsClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 1000 });
}

describe('mcpForm FormSave against the test server (legacy settings routes)', () => {
  describe('a server that ignores mcp_config on add-git-providers (OpenHands today)', () => {
    const t = useTestServer();
    let store: MemoryFormStorage, log: MemoryLog, form: FormSave;
    beforeEach(() => ({ store, log, form } = freshFormSave()));

    it('sends providers and MCP, then stores MCP through /api/settings posting only mcp_config, and keeps the secrets in Secret Storage', async () => {
      const before = await t.client.getSettings();
      const storedBefore = structuredClone(t.server.state.settings);
      t.server.requests.length = 0;
      const result = saved(await form.save(t.server.url, fullDraft(t.server.url), t.client));
      assert.deepEqual(result.outcome.tokens, { status: 'synced' });
      assert.deepEqual(result.outcome.mcp, { status: 'synced', via: 'settings' });
      assert.deepEqual(result.fieldErrors, {});
      assert.deepEqual(calls(t.server.requests), [
        'GET /api/settings',
        'POST /api/add-git-providers',
        'GET /api/settings',
        'POST /api/settings',
        'GET /api/settings',
      ]);
      const add = bodyOf(t.server.requests, 'POST', '/api/add-git-providers');
      assert.deepEqual(add.provider_tokens, { github: { token: 'ghp_valid_new', host: null } });
      assert.equal((add.mcp_config as { stdio_servers: unknown[] }).stdio_servers.length, 1);
      const posted = bodyOf(t.server.requests, 'POST', '/api/settings');
      assert.deepEqual(Object.keys(posted), ['mcp_config'], 'only what the form owns is posted');
      // Every stored field but mcp_config is as it was, secrets (which GET masks as null) included.
      assert.ok(t.server.state.settings && storedBefore);
      const { mcp_config: _mcpAfter, ...restAfter } = t.server.state.settings;
      const { mcp_config: _mcpBefore, ...restBefore } = storedBefore;
      assert.deepEqual(restAfter, restBefore);
      assert.ok(restAfter.llm_api_key, 'the stored LLM key survived');
      assert.equal(t.server.state.settings.llm_model, before.llm_model);
      // What the server holds now.
      assert.equal(t.server.state.providerTokens.github?.token, 'ghp_valid_new');
      const mcp = t.server.state.settings.mcp_config;
      assert.deepEqual(mcp?.sse_servers, [{ url: 'https://sse.example.com/sse', api_key: 'sse-key-1' }]);
      assert.deepEqual(mcp?.shttp_servers, [
        { url: 'https://http.example.com/mcp', api_key: 'http-key-2', timeout: 90 },
      ]);
      assert.deepEqual(mcp?.stdio_servers, [
        { name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'], env: { TOKEN: 'env-secret-3' } },
      ]);
      // What is kept locally: the secrets, by the ids the server's entries derive.
      assert.deepEqual(await store.load(t.server.url), {
        providers: { github: 'ghp_valid_new' },
        apiKeys: {
          [entryId.remote('sse', 'https://sse.example.com/sse')]: 'sse-key-1',
          [entryId.remote('shttp', 'https://http.example.com/mcp')]: 'http-key-2',
        },
        env: { [entryId.stdio('fetch', 'uvx')]: { TOKEN: 'env-secret-3' } },
      });
      // The model is what the server holds after the save, secrets only as set.
      assert.equal(result.loadProblem, null);
      assert.deepEqual(result.model?.providers[0], { provider: 'github', host: null, token: 'set' });
      assert.deepEqual(result.model?.mcp, {
        sse: [
          {
            id: entryId.remote('sse', 'https://sse.example.com/sse'),
            url: 'https://sse.example.com/sse',
            apiKey: 'set',
          },
        ],
        shttp: [
          {
            id: entryId.remote('shttp', 'https://http.example.com/mcp'),
            url: 'https://http.example.com/mcp',
            apiKey: 'set',
            timeout: 90,
          },
        ],
        stdio: [
          {
            id: entryId.stdio('fetch', 'uvx'),
            name: 'fetch',
            command: 'uvx',
            args: ['mcp-server-fetch'],
            env: [{ id: entryId.env('fetch', 'TOKEN'), name: 'TOKEN', value: 'set' }],
            envHidden: false,
          },
        ],
      });
      assertFreeOf(result, FULL_DRAFT_SECRETS, 'the save result');
      assertFreeOf(log.lines, FULL_DRAFT_SECRETS, 'the log');
    });

    it('an MCP-only change keeps every provider the server has, with its exact host and token', async () => {
      await t.client.storeProviderTokens({
        provider_tokens: {
          github: { token: 'ghp_server', host: null },
          gitlab: { token: 'glpat_server', host: 'gitlab.acme.dev' },
          bitbucket: { token: 'bb_server', host: '' },
        },
      });
      const loaded = await form.load(t.server.url, t.client);
      assert.ok(loaded.model);
      assert.deepEqual(
        loaded.model.providers.map((p) => [p.provider, p.host, p.token]),
        [
          ['github', null, 'set'],
          ['gitlab', 'gitlab.acme.dev', 'set'],
          ['bitbucket', '', 'set'],
        ],
      );
      t.server.requests.length = 0;
      const edited = untouched(loaded.model);
      edited.mcp.sse.push({ id: null, url: 'https://only-mcp.example.com/sse', apiKey: none });
      const result = saved(await form.save(t.server.url, edited, t.client));
      assert.deepEqual(result.outcome.tokens, { status: 'unchanged' });
      assert.deepEqual(result.outcome.mcp, { status: 'synced', via: 'settings' });
      assert.deepEqual(bodyOf(t.server.requests, 'POST', '/api/add-git-providers').provider_tokens, {
        github: { token: '', host: null },
        gitlab: { token: '', host: 'gitlab.acme.dev' },
        bitbucket: { token: '', host: '' },
      });
      assert.deepEqual(t.server.state.providerTokens, {
        github: { token: 'ghp_server', host: null, user_id: null },
        gitlab: { token: 'glpat_server', host: 'gitlab.acme.dev', user_id: null },
        bitbucket: { token: 'bb_server', host: '', user_id: null },
      });
      assert.equal(
        t.server.state.settings?.mcp_config?.sse_servers[0]?.url,
        'https://only-mcp.example.com/sse',
      );
      assert.deepEqual(await store.load(t.server.url), { providers: {}, apiKeys: {}, env: {} });
    });

    it('removing a provider omits it: the server deletes only that one, and Secret Storage drops its token', async () => {
      await t.client.storeProviderTokens({
        provider_tokens: {
          github: { token: 'ghp_server', host: '' },
          gitlab: { token: 'glpat_server', host: '' },
        },
      });
      await store.save(t.server.url, {
        providers: { github: 'ghp_server', gitlab: 'glpat_server' },
        apiKeys: {},
        env: {},
      });
      t.server.requests.length = 0;
      const form2 = draft({
        serverUrl: t.server.url,
        providers: [
          { provider: 'github', host: '', token: clear },
          { provider: 'gitlab', host: '', token: keep },
          { provider: 'bitbucket', host: '', token: none },
        ],
      });
      const result = saved(await form.save(t.server.url, form2, t.client));
      assert.deepEqual(result.outcome.tokens, { status: 'synced' });
      assert.deepEqual(result.outcome.mcp, { status: 'unchanged' });
      assert.deepEqual(calls(t.server.requests), [
        'GET /api/settings',
        'POST /api/add-git-providers',
        'GET /api/settings',
      ]);
      assert.deepEqual(bodyOf(t.server.requests, 'POST', '/api/add-git-providers'), {
        provider_tokens: { gitlab: { token: '', host: '' } },
        mcp_config: null,
      });
      assert.deepEqual(Object.keys(t.server.state.providerTokens), ['gitlab']);
      assert.equal(t.server.state.providerTokens.gitlab?.token, 'glpat_server');
      assert.deepEqual((await store.load(t.server.url)).providers, { gitlab: 'glpat_server' });
      assert.deepEqual(
        result.model?.providers.map((p) => [p.provider, p.token]),
        [
          ['github', 'unset'],
          ['gitlab', 'set'],
          ['bitbucket', 'unset'],
        ],
      );
    });

    it('a changed host alone re-sends the provider with an empty token: the server keeps the token under the new host', async () => {
      await t.client.storeProviderTokens({
        provider_tokens: { gitlab: { token: 'glpat_server', host: '' } },
      });
      const loaded = await form.load(t.server.url, t.client);
      assert.ok(loaded.model);
      const edited = untouched(loaded.model);
      edited.providers[1] = { provider: 'gitlab', host: 'gitlab.acme.dev', token: keep };
      t.server.requests.length = 0;
      const result = saved(await form.save(t.server.url, edited, t.client));
      assert.deepEqual(result.outcome.tokens, { status: 'synced' });
      assert.deepEqual(bodyOf(t.server.requests, 'POST', '/api/add-git-providers').provider_tokens, {
        gitlab: { token: '', host: 'gitlab.acme.dev' },
      });
      assert.deepEqual(t.server.state.providerTokens.gitlab, {
        token: 'glpat_server',
        host: 'gitlab.acme.dev',
        user_id: null,
      });
      assert.equal(result.model?.providers[1]?.host, 'gitlab.acme.dev');
    });

    it('a provider the server lost is sent again with the token Secret Storage kept', async () => {
      await store.save(t.server.url, { providers: { github: 'ghp_kept' }, apiKeys: {}, env: {} });
      const form2 = draft({
        serverUrl: t.server.url,
        providers: [
          { provider: 'github', host: '', token: keep },
          { provider: 'gitlab', host: '', token: none },
          { provider: 'bitbucket', host: '', token: none },
        ],
      });
      const result = saved(await form.save(t.server.url, form2, t.client));
      assert.deepEqual(result.outcome.tokens, { status: 'synced' });
      assert.equal(t.server.state.providerTokens.github?.token, 'ghp_kept');
      assertFreeOf(result, ['ghp_kept'], 'the save result');
      assertFreeOf(log.lines, ['ghp_kept'], 'the log');
    });

    it('a provider the form showed without a token stays on the server when another client set it meanwhile', async () => {
      const loaded = await form.load(t.server.url, t.client);
      assert.ok(loaded.model);
      assert.equal(loaded.model.providers[0]?.token, 'unset');
      await t.newClient().storeProviderTokens({
        provider_tokens: { github: { token: 'ghp_elsewhere', host: null } },
      });
      const edited = untouched(loaded.model);
      edited.mcp.stdio.push({ id: null, name: 'git', command: 'uvx', args: ['mcp-server-git'], env: [] });
      const result = saved(await form.save(t.server.url, edited, t.client));
      assert.deepEqual(result.outcome.mcp, { status: 'synced', via: 'settings' });
      assert.deepEqual(result.outcome.tokens, { status: 'unchanged' });
      assert.equal(t.server.state.providerTokens.github?.token, 'ghp_elsewhere');
    });

    it('an invalid draft stores nothing and sends nothing', async () => {
      const form2 = fullDraft(t.server.url);
      form2.mcp.stdio[0] = { ...form2.mcp.stdio[0]!, command: 'npx -y thing' };
      t.server.requests.length = 0;
      const result = await form.save(t.server.url, form2, t.client);
      assert.deepEqual(result, {
        kind: 'invalid',
        errors: { [fieldPath.command(0)]: STRINGS.errCommandSpaces },
      });
      assert.equal(store.saves, 0);
      assert.deepEqual(calls(t.server.requests), []);
    });

    it('a token the provider rejects (401) is shown on that provider; MCP still saves; Secret Storage keeps no token', async () => {
      const form2 = fullDraft(t.server.url);
      form2.providers[1] = { provider: 'gitlab', host: '', token: replace('bad-gitlab-token') };
      const result = saved(await form.save(t.server.url, form2, t.client));
      assert.equal(result.outcome.tokens.status, 'failed');
      assert.match(result.outcome.tokens.message ?? '', /valid gitlab token/);
      assert.match(result.fieldErrors[fieldPath.providerToken('gitlab')] ?? '', /valid gitlab token/);
      assert.deepEqual(Object.keys(result.fieldErrors), [fieldPath.providerToken('gitlab')]);
      assert.deepEqual(result.outcome.mcp, { status: 'synced', via: 'settings' });
      assert.deepEqual(t.server.state.providerTokens, {}, 'the whole provider request was refused');
      assert.equal(t.server.state.settings?.mcp_config?.stdio_servers.length, 1);
      const kept = await store.load(t.server.url);
      assert.deepEqual(kept.providers, {}, 'no token the server refused');
      assert.deepEqual(Object.values(kept.apiKeys).sort(), ['http-key-2', 'sse-key-1']);
      const secrets = [...FULL_DRAFT_SECRETS, 'bad-gitlab-token'];
      assertFreeOf(result, secrets, 'the save result');
      assertFreeOf(log.lines, secrets, 'the log');
    });

    it('a 422 on mcp_config lands on the fields its loc names; neither part is stored', async () => {
      t.server.faults.add({
        kind: 'status',
        status: 422,
        times: 1,
        match: { path: '/api/add-git-providers' },
        body: {
          detail: [
            {
              type: 'value_error',
              loc: ['body', 'mcp_config', 'shttp_servers', 0, 'timeout'],
              msg: 'Value error, Timeout cannot exceed 3600 seconds (1 hour)',
              input: 99999,
            },
            {
              type: 'value_error',
              loc: ['body', 'mcp_config', 'stdio_servers', 0, 'env', 'TOKEN'],
              msg: 'Value error, bad env',
              input: 'env-secret-3',
            },
          ],
        },
      });
      t.server.requests.length = 0;
      const result = saved(await form.save(t.server.url, fullDraft(t.server.url), t.client));
      assert.equal(result.outcome.mcp.status, 'failed');
      assert.equal(result.outcome.tokens.status, 'failed');
      assert.deepEqual(result.fieldErrors, {
        [fieldPath.timeout(0)]: 'Value error, Timeout cannot exceed 3600 seconds (1 hour)',
        [fieldPath.envName(0, 0)]: 'Value error, bad env',
      });
      assert.ok(!JSON.stringify(result).includes('99999'), 'the echoed input is not kept');
      assertFreeOf(result, FULL_DRAFT_SECRETS, 'the save result');
      assertFreeOf(log.lines, FULL_DRAFT_SECRETS, 'the log');
      assert.deepEqual(calls(t.server.requests), [
        'GET /api/settings',
        'POST /api/add-git-providers',
        'GET /api/settings',
      ]);
      assert.equal(store.saves, 0);
      // The model is the server's (unchanged) state; the webview keeps the draft of a failed part.
      assert.deepEqual(result.model?.mcp, { sse: [], shttp: [], stdio: [] });
      assert.equal(result.model?.providers[0]?.token, 'unset');
    });

    it('a server without settings yet (404) fails both parts with advice and sends nothing', async () => {
      t.server.state.settings = null;
      t.server.requests.length = 0;
      const result = saved(await form.save(t.server.url, fullDraft(t.server.url), t.client));
      assert.deepEqual(result.outcome.tokens, { status: 'failed', message: STRINGS.errNoSettings });
      assert.deepEqual(result.outcome.mcp, { status: 'failed', message: STRINGS.errNoSettings });
      assert.deepEqual(calls(t.server.requests), ['GET /api/settings']);
      // nothing was sent: no new state, and no read-back problem to report
      assert.equal(result.model, null);
      assert.equal(result.loadProblem, null);
      assert.equal(store.saves, 0);
    });

    it('unreachable: both changed parts fail with the network message and Secret Storage is untouched; the same draft saves once the server is back', async () => {
      await store.save(t.server.url, { providers: { github: 'ghp_kept_before' }, apiKeys: {}, env: {} });
      const savesBefore = store.saves;
      const offline = saved(await form.save(t.server.url, fullDraft(t.server.url), unreachableClient()));
      assert.equal(offline.outcome.tokens.status, 'failed');
      assert.equal(offline.outcome.mcp.status, 'failed');
      assert.match(offline.outcome.tokens.message ?? '', /Cannot reach/);
      assert.match(offline.outcome.mcp.message ?? '', /Cannot reach/);
      assert.equal(offline.model, null);
      assert.equal(offline.loadProblem, null);
      assert.deepEqual(offline.fieldErrors, {});
      assert.equal(store.saves, savesBefore, 'Secret Storage untouched');
      assert.deepEqual(await store.load(t.server.url), {
        providers: { github: 'ghp_kept_before' },
        apiKeys: {},
        env: {},
      });
      assertFreeOf(offline, [...FULL_DRAFT_SECRETS, 'ghp_kept_before'], 'the save result');
      assertFreeOf(log.lines, [...FULL_DRAFT_SECRETS, 'ghp_kept_before'], 'the log');

      const back = saved(await form.save(t.server.url, fullDraft(t.server.url), t.client));
      assert.deepEqual(back.outcome.tokens, { status: 'synced' });
      assert.deepEqual(back.outcome.mcp, { status: 'synced', via: 'settings' });
      assert.equal(t.server.state.providerTokens.github?.token, 'ghp_valid_new');
      assert.equal(t.server.state.settings?.mcp_config?.stdio_servers.length, 1);
      assert.deepEqual((await store.load(t.server.url)).providers, { github: 'ghp_valid_new' });
    });

    it('the connection drops on add-git-providers: both parts fail and Secret Storage is untouched', async () => {
      t.server.faults.add({ kind: 'reset', times: 1, match: { path: '/api/add-git-providers' } });
      const result = saved(await form.save(t.server.url, fullDraft(t.server.url), t.client));
      assert.equal(result.outcome.tokens.status, 'failed');
      assert.equal(result.outcome.mcp.status, 'failed');
      assert.equal(result.outcome.mcp.message, result.outcome.tokens.message);
      assert.equal(store.saves, 0);
      assert.deepEqual(t.server.state.providerTokens, {});
      assert.deepEqual(t.server.state.settings?.mcp_config?.stdio_servers ?? [], []);
      assertFreeOf(result, FULL_DRAFT_SECRETS, 'the save result');
    });

    it('saved, but the read-back fails: the outcome stands, and the form is told to reload', async () => {
      let reads = 0;
      const client = {
        getSettings: () => {
          // the read-back after the provider call meets a failing server
          if (++reads === 2)
            t.server.faults.add({ kind: 'status', status: 500, match: { path: '/api/settings' } });
          return t.client.getSettings();
        },
        storeProviderTokens: t.client.storeProviderTokens.bind(t.client),
        storeSettings: t.client.storeSettings.bind(t.client),
      };
      const form2 = draft({
        serverUrl: t.server.url,
        providers: [
          { provider: 'github', host: '', token: replace('ghp_valid_new') },
          { provider: 'gitlab', host: '', token: none },
          { provider: 'bitbucket', host: '', token: none },
        ],
      });
      const result = saved(await form.save(t.server.url, form2, client));
      assert.deepEqual(result.outcome, { tokens: { status: 'synced' }, mcp: { status: 'unchanged' } });
      assert.equal(result.model, null);
      assert.equal(result.loadProblem, STRINGS.errReadBack);
      assert.equal(t.server.state.providerTokens.github?.token, 'ghp_valid_new');
      assert.deepEqual((await store.load(t.server.url)).providers, { github: 'ghp_valid_new' });
    });

    it('loading shows the server MCP config with stable ids and no secret, and stores nothing', async () => {
      await t.client.storeSettings({
        mcp_config: {
          sse_servers: [{ url: 'https://web-ui.example.com/sse', api_key: 'from-web-ui' }],
          shttp_servers: [],
          stdio_servers: [{ name: 'git', command: 'uvx', args: ['mcp-server-git'], env: { A: '1', B: '' } }],
        },
      });
      const first = await form.load(t.server.url, t.client);
      const second = await form.load(t.server.url, t.client);
      assert.equal(first.loadProblem, null);
      assert.deepEqual(second, first);
      assert.deepEqual(first.model?.mcp.sse, [
        {
          id: entryId.remote('sse', 'https://web-ui.example.com/sse'),
          url: 'https://web-ui.example.com/sse',
          apiKey: 'set',
        },
      ]);
      assert.deepEqual(
        first.model?.mcp.stdio[0]?.env.map((row) => [row.name, row.value]),
        [
          ['A', 'set'],
          ['B', 'unset'],
        ],
        'an empty value is "not set"',
      );
      assertFreeOf(first, ['from-web-ui'], 'the model');
      assert.equal(store.saves, 0);
    });

    it('an MCP change re-sends the servers kept as they are, with the secrets the server holds', async () => {
      await t.client.storeSettings({
        mcp_config: {
          sse_servers: [{ url: 'https://web-ui.example.com/sse', api_key: 'from-web-ui' }],
          shttp_servers: [],
          stdio_servers: [{ name: 'git', command: 'uvx', args: ['mcp-server-git'], env: { A: '1', B: '' } }],
        },
      });
      const loaded = await form.load(t.server.url, t.client);
      assert.ok(loaded.model);
      const edited = untouched(loaded.model);
      edited.mcp.shttp.push({ id: null, url: 'https://new.example.com/mcp', apiKey: none, timeout: '' });
      const result = saved(await form.save(t.server.url, edited, t.client));
      assert.deepEqual(result.outcome.mcp, { status: 'synced', via: 'settings' });
      assert.deepEqual(t.server.state.settings?.mcp_config, {
        sse_servers: [{ url: 'https://web-ui.example.com/sse', api_key: 'from-web-ui' }],
        shttp_servers: [{ url: 'https://new.example.com/mcp', api_key: null, timeout: 60 }],
        stdio_servers: [{ name: 'git', command: 'uvx', args: ['mcp-server-git'], env: { A: '1', B: '' } }],
      });
      assertFreeOf(result, ['from-web-ui'], 'the save result');
    });

    it('a save with nothing changed reads the settings once and sends nothing', async () => {
      await t.client.storeProviderTokens({
        provider_tokens: { github: { token: 'ghp_server', host: null } },
      });
      await t.client.storeSettings({
        mcp_config: {
          sse_servers: [],
          shttp_servers: [{ url: 'https://http.example.com/mcp', api_key: 'k', timeout: 120 }],
          stdio_servers: [{ name: 'fetch', command: 'uvx', args: [], env: { T: 'v' } }],
        },
      });
      const loaded = await form.load(t.server.url, t.client);
      assert.ok(loaded.model);
      t.server.requests.length = 0;
      const result = saved(await form.save(t.server.url, untouched(loaded.model), t.client));
      assert.deepEqual(result.outcome.tokens, { status: 'unchanged' });
      assert.deepEqual(result.outcome.mcp, { status: 'unchanged' });
      assert.deepEqual(calls(t.server.requests), ['GET /api/settings']);
      assert.deepEqual(result.model, loaded.model);
      assert.equal(store.saves, 0);
    });

    it('refuses a draft made for another server, and one without a client, sending nothing', async () => {
      t.server.requests.length = 0;
      assert.deepEqual(await form.save(t.server.url, fullDraft('http://other.example.com'), t.client), {
        kind: 'invalid',
        errors: { form: STRINGS.errServerChanged },
      });
      assert.deepEqual(await form.save(t.server.url, fullDraft(t.server.url), undefined), {
        kind: 'invalid',
        errors: { form: STRINGS.noServer },
      });
      assert.deepEqual(calls(t.server.requests), []);
      assert.equal(store.saves, 0);
    });

    it('a load that cannot reach the server says why and logs it; without a client there is nothing to load', async () => {
      const loaded = await form.load(t.server.url, unreachableClient());
      assert.equal(loaded.model, null);
      assert.match(loaded.loadProblem ?? '', /Cannot reach/);
      assert.ok(log.lines.some((line) => line.startsWith('warn ') && /Cannot reach/.test(line)));
      assert.deepEqual(await form.load(t.server.url, undefined), { model: null, loadProblem: null });
    });
  });

  describe('a server that keeps mcp_config from add-git-providers (a newer server)', () => {
    const t = useTestServer({ storeMcpConfigOnAddGitProviders: true });

    it('needs no /api/settings write', async () => {
      const form = new FormSave(new MemoryFormStorage(), new MemoryLog(), STRINGS);
      const result = saved(await form.save(t.server.url, fullDraft(t.server.url), t.client));
      assert.deepEqual(result.outcome.mcp, { status: 'synced', via: 'add-git-providers' });
      assert.deepEqual(calls(t.server.requests), [
        'GET /api/settings',
        'POST /api/add-git-providers',
        'GET /api/settings',
      ]);
      assert.equal(t.server.state.settings?.mcp_config?.stdio_servers[0]?.env.TOKEN, 'env-secret-3');
    });
  });

  describe('a server that requires a session key', () => {
    const t = useTestServer({ sessionApiKey: 'session-key-123' });

    it('a wrong key fails both parts with the auth message, blames no field and stores nothing', async () => {
      const store = new MemoryFormStorage();
      const form = new FormSave(store, new MemoryLog(), STRINGS);
      const client = t.newClient({ apiKey: 'wrong-key' });
      const result = saved(await form.save(t.server.url, fullDraft(t.server.url), client));
      assert.equal(result.outcome.tokens.status, 'failed');
      assert.equal(result.outcome.mcp.status, 'failed');
      assert.match(result.outcome.tokens.message ?? '', /401/);
      assert.deepEqual(result.fieldErrors, {}, 'not blamed on a provider token');
      assert.equal(result.loadProblem, null);
      assert.equal(store.saves, 0);
      assert.deepEqual(t.server.state.providerTokens, {});
    });
  });
});
