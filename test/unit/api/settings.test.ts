import assert from 'node:assert/strict';
import { ApiError } from '../../../src/api';
import { useTestServer } from './harness';

const mcp = {
  sse_servers: [{ url: 'https://mcp.example.com/sse', api_key: 'sse-secret-1' }],
  shttp_servers: [{ url: 'https://mcp.example.com/mcp', api_key: 'shttp-secret-2', timeout: 90 }],
  stdio_servers: [
    { name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'], env: { TOKEN: 'env-secret-3' } },
  ],
};

describe('OpenHandsClient: settings and git providers', () => {
  describe('against a server that behaves like OpenHands today', () => {
    const t = useTestServer();

    it('storeProviderTokens stores tokens; getSettings reports provider_tokens_set with hosts', async () => {
      const reply = await t.client.storeProviderTokens({
        provider_tokens: {
          github: { token: 'ghp_valid', host: '' },
          gitlab: { token: 'glpat-valid', host: 'gitlab.acme.dev' },
        },
      });
      assert.equal(reply.message, 'Git providers stored');
      const settings = await t.client.getSettings();
      assert.deepEqual(Object.keys(settings.provider_tokens_set ?? {}).sort(), ['github', 'gitlab']);
      assert.equal(settings.provider_tokens_set?.gitlab, 'gitlab.acme.dev');
      assert.ok(!JSON.stringify(settings).includes('ghp_valid'), 'settings never echo a token');
    });

    it('an empty token keeps the stored one; an omitted provider is deleted (the real merge rules)', async () => {
      await t.client.storeProviderTokens({
        provider_tokens: { github: { token: 'ghp_one' }, gitlab: { token: 'glpat-two' } },
      });
      await t.client.storeProviderTokens({
        provider_tokens: { github: { token: '', host: 'github.acme.dev' } },
      });
      assert.equal(t.server.state.providerTokens.github?.token, 'ghp_one');
      assert.equal(t.server.state.providerTokens.gitlab, undefined);
      assert.deepEqual((await t.client.getSettings()).provider_tokens_set, { github: 'github.acme.dev' });
    });

    it('a token the provider rejects is unauthorized with the server message, and nothing is stored', async () => {
      await assert.rejects(
        t.client.storeProviderTokens({ provider_tokens: { github: { token: 'bad-token' } } }),
        (error: ApiError) => {
          assert.equal(error.kind, 'unauthorized');
          assert.equal(error.status, 401);
          assert.match(error.serverMessage ?? '', /valid github token/);
          assert.ok(!error.message.includes('bad-token'));
          return true;
        },
      );
      assert.deepEqual((await t.client.getSettings()).provider_tokens_set ?? {}, {});
    });

    it('an unknown provider is a 422 with the FastAPI detail items', async () => {
      await assert.rejects(
        t.client.storeProviderTokens({ provider_tokens: { foo: { token: 'x' } } as never }),
        (error: ApiError) => {
          assert.equal(error.kind, 'validation');
          assert.equal(error.status, 422);
          assert.deepEqual(error.issues[0]?.loc, ['body', 'provider_tokens', 'foo', '[key]']);
          assert.equal(error.issues[0]?.type, 'enum');
          return true;
        },
      );
    });

    it('mcp_config sent to add-git-providers is validated but ignored', async () => {
      await t.client.storeProviderTokens({ provider_tokens: {}, mcp_config: mcp });
      const settings = await t.client.getSettings();
      assert.deepEqual(settings.mcp_config?.sse_servers ?? [], []);
      await assert.rejects(
        t.client.storeProviderTokens({ mcp_config: { sse_servers: [{ url: 'ftp://nope' }] } }),
        (error: ApiError) => error.kind === 'validation' && error.issues.length > 0,
      );
    });

    it('storeSettings read-modify-write persists mcp_config and keeps the other settings', async () => {
      const before = await t.client.getSettings();
      assert.equal((await t.client.storeSettings({ ...before, mcp_config: mcp })).message, 'Settings stored');
      const after = await t.client.getSettings();
      assert.equal(after.llm_model, before.llm_model);
      assert.equal(after.mcp_config?.sse_servers[0]?.url, 'https://mcp.example.com/sse');
      assert.deepEqual(after.mcp_config?.stdio_servers[0]?.args, ['mcp-server-fetch']);
      assert.equal(after.mcp_config?.shttp_servers[0]?.timeout, 90);
    });

    it('unsetProviderTokens clears every token', async () => {
      await t.client.storeProviderTokens({ provider_tokens: { github: { token: 'ghp_one' } } });
      await t.client.unsetProviderTokens();
      assert.deepEqual((await t.client.getSettings()).provider_tokens_set ?? {}, {});
    });
  });

  describe('against a server that stores mcp_config from add-git-providers', () => {
    const t = useTestServer({ storeMcpConfigOnAddGitProviders: true });

    it('the MCP config persists from the same call', async () => {
      await t.client.storeProviderTokens({ provider_tokens: {}, mcp_config: mcp });
      const settings = await t.client.getSettings();
      assert.equal(settings.mcp_config?.stdio_servers[0]?.name, 'fetch');
    });
  });

  describe('with a session API key configured on the server', () => {
    const t = useTestServer({ sessionApiKey: 'session-key-123' });

    it('every /api route, V1 included, is unauthorized without the key and works with it', async () => {
      await assert.rejects(t.client.getSettings(), (error: ApiError) => error.kind === 'unauthorized');
      await assert.rejects(t.client.searchSandboxes(), (error: ApiError) => error.kind === 'unauthorized');
      const keyed = t.newClient({ apiKey: 'session-key-123' });
      await keyed.searchSandboxes();
      await keyed.getSettings();
      const sent = t.server.requests.at(-1);
      assert.equal(sent?.headers['x-session-api-key'], 'session-key-123');
    });
  });

  describe('hosted deployments', () => {
    const bearer = useTestServer({ hostedAuth: { header: 'authorization-bearer', apiKey: 'hosted-key' } });

    it('sends Authorization: Bearer when asked, and every route needs it', async () => {
      await assert.rejects(
        bearer.client.searchSandboxes(),
        (error: ApiError) => error.kind === 'unauthorized',
      );
      const client = bearer.newClient({ apiKey: 'hosted-key', authHeader: 'Authorization' });
      await client.searchSandboxes();
      assert.equal(bearer.server.requests.at(-1)?.headers.authorization, 'Bearer hosted-key');
    });
  });

  describe('hosted deployments with X-Access-Token', () => {
    const token = useTestServer({ hostedAuth: { header: 'x-access-token', apiKey: 'access-key' } });

    it('sends X-Access-Token when asked', async () => {
      const client = token.newClient({ apiKey: 'access-key', authHeader: 'X-Access-Token' });
      await client.searchConversations();
      assert.equal(token.server.requests.at(-1)?.headers['x-access-token'], 'access-key');
    });
  });
});
