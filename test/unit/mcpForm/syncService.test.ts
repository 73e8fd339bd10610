import assert from 'node:assert/strict';
import { OpenHandsClient } from '../../../src/api';
import { fieldPath } from '../../../src/webviews/mcpForm/shared/fieldPath';
import { SyncService } from '../../../src/webviews/mcpForm/host/syncService';
import type { RecordedRequest } from '../../server';
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

const MCP_SECRETS = ['sse-key-1', 'http-key-2', 'env-secret-3'];

function bodyOf(requests: RecordedRequest[], method: string, path: string): Record<string, unknown> {
  const found = requests.find((r) => r.method === method && r.path === path);
  assert.ok(found, `no ${method} ${path}`);
  assert.ok(found.body && typeof found.body === 'object');
  return found.body as Record<string, unknown>;
}

describe('mcpForm save and sync against the test server', () => {
  describe('a server that ignores mcp_config on add-git-providers (OpenHands today)', () => {
    const t = useTestServer();
    let store: MemoryFormStorage;
    let log: MemoryLog;
    let service: SyncService;
    beforeEach(() => {
      store = new MemoryFormStorage();
      log = new MemoryLog();
      service = new SyncService(store, log, () => STRINGS, idSequence());
    });

    it('stores locally, sends providers and MCP, then persists MCP through /api/settings, posting only mcp_config', async () => {
      const before = await t.client.getSettings();
      const storedBefore = structuredClone(t.server.state.settings);
      t.server.requests.length = 0;
      const result = saved(await service.save(t.server.url, fullDraft(t.server.url), t.client));
      assert.deepEqual(result.outcome.tokens, { status: 'synced' });
      assert.deepEqual(result.outcome.mcp, { status: 'synced', via: 'settings' });
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
      // What the server holds now.
      assert.equal(t.server.state.providerTokens.github?.token, 'ghp_valid_new');
      const mcp = t.server.state.settings?.mcp_config;
      assert.deepEqual(mcp?.sse_servers, [{ url: 'https://sse.example.com/sse', api_key: 'sse-key-1' }]);
      assert.deepEqual(mcp?.shttp_servers, [
        { url: 'https://http.example.com/mcp', api_key: 'http-key-2', timeout: 90 },
      ]);
      assert.deepEqual(mcp?.stdio_servers, [
        { name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'], env: { TOKEN: 'env-secret-3' } },
      ]);
      assert.equal(t.server.state.settings?.llm_model, before.llm_model);
      // What is kept locally: secrets apart, nothing pending.
      const local = await store.load(t.server.url);
      assert.deepEqual(local.config.pending, { providers: {}, mcp: false });
      assert.equal(local.secrets.providers.github, 'ghp_valid_new');
      assert.deepEqual(Object.values(local.secrets.apiKeys).sort(), ['http-key-2', 'sse-key-1']);
      assert.ok(!JSON.stringify(local.config).includes('ghp_valid_new'), 'no secret in the non-secret half');
      for (const secret of [...MCP_SECRETS, 'ghp_valid_new']) {
        assert.ok(!JSON.stringify(local.config).includes(secret), secret);
        assert.ok(!log.lines.join('\n').includes(secret), `log holds ${secret}`);
      }
    });

    it('an MCP-only change keeps every provider the server has, with its exact host and token', async () => {
      await t.client.storeProviderTokens({
        provider_tokens: {
          github: { token: 'ghp_server', host: null },
          gitlab: { token: 'glpat_server', host: 'gitlab.acme.dev' },
          bitbucket: { token: 'bb_server', host: '' },
        },
      });
      const loaded = await service.load(t.server.url, t.client);
      assert.deepEqual(loaded.serverProviders, { github: null, gitlab: 'gitlab.acme.dev', bitbucket: '' });
      t.server.requests.length = 0;
      const form = draft({
        serverUrl: t.server.url,
        providers: [
          { provider: 'github', host: '', token: keep },
          { provider: 'gitlab', host: 'gitlab.acme.dev', token: keep },
          { provider: 'bitbucket', host: '', token: keep },
        ],
        mcp: { sse: [{ id: null, url: 'https://only-mcp.example.com/sse', apiKey: none }] },
      });
      const result = saved(await service.save(t.server.url, form, t.client));
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
    });

    it('removing a provider omits it, and the server deletes only that one', async () => {
      await t.client.storeProviderTokens({
        provider_tokens: {
          github: { token: 'ghp_server', host: '' },
          gitlab: { token: 'glpat_server', host: '' },
        },
      });
      await service.load(t.server.url, t.client);
      const form = draft({
        serverUrl: t.server.url,
        providers: [
          { provider: 'github', host: '', token: { state: 'clear' } },
          { provider: 'gitlab', host: '', token: keep },
          { provider: 'bitbucket', host: '', token: none },
        ],
      });
      const result = saved(await service.save(t.server.url, form, t.client));
      assert.deepEqual(result.outcome.tokens, { status: 'synced' });
      assert.deepEqual(result.outcome.mcp, { status: 'unchanged' });
      assert.deepEqual(Object.keys(t.server.state.providerTokens), ['gitlab']);
      assert.equal(t.server.state.providerTokens.gitlab?.token, 'glpat_server');
    });

    it('an invalid draft stores nothing and sends nothing', async () => {
      const form = fullDraft(t.server.url);
      form.mcp.stdio[0] = { ...form.mcp.stdio[0]!, command: 'npx -y thing' };
      t.server.requests.length = 0;
      const result = await service.save(t.server.url, form, t.client);
      assert.deepEqual(result, {
        kind: 'invalid',
        errors: { [fieldPath.command(0)]: STRINGS.errCommandSpaces },
      });
      assert.equal(store.saves, 0);
      assert.deepEqual(calls(t.server.requests), []);
    });

    it('a token the provider rejects (401) is shown on that provider; MCP still syncs; the token stays pending', async () => {
      const form = fullDraft(t.server.url);
      form.providers[1] = { provider: 'gitlab', host: '', token: replace('bad-gitlab-token') };
      const result = saved(await service.save(t.server.url, form, t.client));
      assert.equal(result.outcome.tokens.status, 'failed');
      assert.match(result.outcome.tokens.message ?? '', /valid gitlab token/);
      assert.match(result.fieldErrors[fieldPath.providerToken('gitlab')] ?? '', /valid gitlab token/);
      assert.deepEqual(result.outcome.mcp, { status: 'synced', via: 'settings' });
      assert.deepEqual(t.server.state.providerTokens, {}, 'the whole provider request was refused');
      assert.deepEqual(Object.keys(result.config.pending.providers).sort(), ['github', 'gitlab']);
      assert.ok(!JSON.stringify(result.outcome).includes('bad-gitlab-token'));
    });

    it('a 422 on mcp_config lands on the field its loc names', async () => {
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
      const result = saved(await service.save(t.server.url, fullDraft(t.server.url), t.client));
      assert.equal(result.outcome.mcp.status, 'failed');
      assert.equal(result.outcome.tokens.status, 'failed');
      assert.deepEqual(result.fieldErrors, {
        [fieldPath.timeout(0)]: 'Value error, Timeout cannot exceed 3600 seconds (1 hour)',
        [fieldPath.envName(0, 0)]: 'Value error, bad env',
      });
      assert.ok(!JSON.stringify(result).includes('99999'), 'the echoed input is not kept');
      assert.equal(result.config.pending.mcp, true);
    });

    it('a server without settings yet (404) fails both parts with advice and keeps them pending', async () => {
      t.server.state.settings = null;
      const result = saved(await service.save(t.server.url, fullDraft(t.server.url), t.client));
      assert.deepEqual(result.outcome.tokens, { status: 'failed', message: STRINGS.errNoSettings });
      assert.deepEqual(result.outcome.mcp, { status: 'failed', message: STRINGS.errNoSettings });
      assert.deepEqual(calls(t.server.requests), ['GET /api/settings']);
      assert.equal(result.config.pending.mcp, true);
    });

    it('unreachable: the local save succeeds, the sync is pending, and a retry later pushes everything', async () => {
      const dead = new OpenHandsClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 1000 });
      const offline = saved(await service.save(t.server.url, fullDraft(t.server.url), dead));
      assert.equal(offline.outcome.tokens.status, 'pending');
      assert.equal(offline.outcome.mcp.status, 'pending');
      assert.match(offline.outcome.mcp.message ?? '', /Cannot reach/);
      const local = await store.load(t.server.url);
      assert.equal(local.secrets.providers.github, 'ghp_valid_new', 'saved locally');
      assert.deepEqual(local.config.pending, {
        providers: { github: { kind: 'token', host: null } },
        mcp: true,
      });

      // Loading while pending keeps the local change over the server's state.
      const reloaded = await service.load(t.server.url, t.client);
      assert.equal(reloaded.config.mcp.sse.length, 1);

      const retried = await service.sync(t.server.url, t.client);
      assert.deepEqual(retried.outcome.tokens, { status: 'synced' });
      assert.deepEqual(retried.outcome.mcp, { status: 'synced', via: 'settings' });
      assert.equal(t.server.state.providerTokens.github?.token, 'ghp_valid_new');
      assert.equal(t.server.state.settings?.mcp_config?.stdio_servers.length, 1);
      assert.deepEqual(retried.config.pending, { providers: {}, mcp: false });
    });

    it('loading imports the server MCP config, its secrets into Secret Storage, with stable ids', async () => {
      await t.client.storeSettings({
        ...(await t.client.getSettings()),
        mcp_config: {
          sse_servers: [{ url: 'https://web-ui.example.com/sse', api_key: 'from-web-ui' }],
          shttp_servers: [],
          stdio_servers: [{ name: 'git', command: 'uvx', args: ['mcp-server-git'], env: { A: '1', B: '' } }],
        },
      });
      const first = await service.load(t.server.url, t.client);
      const second = await service.load(t.server.url, t.client);
      assert.deepEqual(second.config.mcp, first.config.mcp);
      const sseId = first.config.mcp.sse[0]?.id ?? '';
      assert.equal(first.secrets.apiKeys[sseId], 'from-web-ui');
      const stdio = first.config.mcp.stdio[0];
      assert.deepEqual(
        stdio?.env.map((row) => row.name),
        ['A', 'B'],
      );
      assert.deepEqual(
        Object.values(first.secrets.env[stdio?.id ?? ''] ?? {}),
        ['1'],
        'an empty value is "not set"',
      );
    });

    it('credentials in MCP URLs and stdio args are kept in Secret Storage, stored and shown masked, sent whole', async () => {
      const whole = {
        url: 'https://mcp.example.com/sse?team=core&api_key=url-secret-7',
        tokenArg: '--token=arg-secret-8',
        urlArg: 'https://tools.example.com/mcp?token=arg-secret-9',
      };
      const credentials = ['url-secret-7', 'arg-secret-8', 'arg-secret-9'];
      const first = saved(
        await service.save(
          t.server.url,
          draft({
            serverUrl: t.server.url,
            mcp: {
              sse: [{ id: null, url: whole.url, apiKey: none }],
              shttp: [],
              stdio: [
                {
                  id: null,
                  name: 'tools',
                  command: 'npx',
                  args: ['-y', whole.tokenArg, whole.urlArg],
                  env: [],
                },
              ],
            },
          }),
          t.client,
        ),
      );
      assert.deepEqual(first.outcome.mcp, { status: 'synced', via: 'settings' });
      const sent = t.server.state.settings?.mcp_config;
      assert.equal(sent?.sse_servers[0]?.url, whole.url, 'the server gets the URL whole');
      assert.deepEqual(sent?.stdio_servers[0]?.args, ['-y', whole.tokenArg, whole.urlArg]);

      const local = await store.load(t.server.url);
      const plain = JSON.stringify(local.config);
      for (const secret of credentials) assert.ok(!plain.includes(secret), `${secret} stored as plain data`);
      assert.equal(local.config.mcp.sse[0]?.url, 'https://mcp.example.com/sse?team=core&api_key=[redacted]');
      assert.deepEqual(local.config.mcp.stdio[0]?.args, [
        '-y',
        '--token=[redacted]',
        'https://tools.example.com/mcp?token=[redacted]',
      ]);
      assert.deepEqual(
        Object.values(local.secrets.credentialFields ?? {}).sort(),
        Object.values(whole).sort(),
      );

      // The form shows the masked values; saving them untouched, with another change, keeps the whole ones.
      const stdioId = local.config.mcp.stdio[0]?.id ?? null;
      const again = saved(
        await service.save(
          t.server.url,
          draft({
            serverUrl: t.server.url,
            mcp: {
              sse: [
                {
                  id: local.config.mcp.sse[0]?.id ?? null,
                  url: local.config.mcp.sse[0]?.url ?? '',
                  apiKey: none,
                },
              ],
              shttp: [],
              stdio: [
                {
                  id: stdioId,
                  name: 'tools',
                  command: 'npx',
                  args: [...(local.config.mcp.stdio[0]?.args ?? []), '--verbose'],
                  env: [],
                },
              ],
            },
          }),
          t.client,
        ),
      );
      assert.deepEqual(again.outcome.mcp, { status: 'synced', via: 'settings' });
      const resent = t.server.state.settings?.mcp_config;
      assert.equal(resent?.sse_servers[0]?.url, whole.url);
      assert.deepEqual(resent?.stdio_servers[0]?.args, ['-y', whole.tokenArg, whole.urlArg, '--verbose']);

      // Loaded back from the server, they are masked again.
      const loaded = await service.load(t.server.url, t.client);
      for (const secret of credentials) assert.ok(!JSON.stringify(loaded.config).includes(secret), secret);
      for (const secret of credentials)
        assert.ok(!log.lines.join('\n').includes(secret), `log holds ${secret}`);
    });

    it('a save with nothing changed sends nothing', async () => {
      await service.load(t.server.url, t.client);
      t.server.requests.length = 0;
      const result = saved(await service.save(t.server.url, draft({ serverUrl: t.server.url }), t.client));
      assert.deepEqual(result.outcome.tokens, { status: 'unchanged' });
      assert.deepEqual(result.outcome.mcp, { status: 'unchanged' });
      assert.deepEqual(calls(t.server.requests), []);
    });

    it('refuses a draft made for another server', async () => {
      const result = await service.save(t.server.url, fullDraft('http://other.example.com'), t.client);
      assert.deepEqual(result, { kind: 'invalid', errors: { form: STRINGS.errServerChanged } });
    });
  });

  describe('a server that keeps mcp_config from add-git-providers (a newer server)', () => {
    const t = useTestServer({ storeMcpConfigOnAddGitProviders: true });

    it('needs no /api/settings write', async () => {
      const service = new SyncService(new MemoryFormStorage(), new MemoryLog(), () => STRINGS, idSequence());
      const result = saved(await service.save(t.server.url, fullDraft(t.server.url), t.client));
      assert.deepEqual(result.outcome.mcp, { status: 'synced', via: 'add-git-providers' });
      assert.deepEqual(calls(t.server.requests), [
        'GET /api/settings',
        'POST /api/add-git-providers',
        'GET /api/settings',
      ]);
    });
  });

  describe('a server that requires a session key', () => {
    const t = useTestServer({ sessionApiKey: 'session-key-123' });

    it('a wrong key fails both parts with the auth message, nothing lost locally', async () => {
      const service = new SyncService(new MemoryFormStorage(), new MemoryLog(), () => STRINGS, idSequence());
      const client = t.newClient({ apiKey: 'wrong-key' });
      const result = saved(await service.save(t.server.url, fullDraft(t.server.url), client));
      assert.equal(result.outcome.tokens.status, 'failed');
      assert.equal(result.outcome.mcp.status, 'failed');
      assert.match(result.outcome.tokens.message ?? '', /401/);
      assert.equal(result.config.pending.mcp, true);
      assert.deepEqual(result.fieldErrors, {}, 'not blamed on a provider token');
    });
  });
});
