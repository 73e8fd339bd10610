import assert from 'node:assert/strict';
import type { ProviderToken } from '../../../src/api';
import type { LocalMcp, ProviderChange } from '../../../src/webviews/mcpForm/host/localState';
import {
  buildMcpConfig,
  mcpConfigEquals,
  mcpConfigStored,
  planProviderTokens,
} from '../../../src/webviews/mcpForm/host/syncPlan';
import { mergeProviderTokens, type StoredProviderTokens } from '../../server/gitProviders';

type ServerSide = 'absent' | 'host null' | 'host ""' | 'host acme';
type Change = 'none' | 'new token' | 'new host' | 'removed';

const SERVER_HOST: Record<ServerSide, string | null | undefined> = {
  absent: undefined,
  'host null': null,
  'host ""': '',
  'host acme': 'gitlab.acme.dev',
};

function changeOf(change: Change): ProviderChange | undefined {
  if (change === 'new token') return { kind: 'token', host: 'git.new.dev' };
  if (change === 'new host') return { kind: 'host', host: 'git.moved.dev' };
  if (change === 'removed') return { kind: 'remove' };
  return undefined;
}

/** The rule, stated once per combination: what must be sent for this provider. */
function expected(server: ServerSide, change: Change, tokenStored: boolean): ProviderToken | 'omitted' {
  const host = SERVER_HOST[server];
  const onServer = host !== undefined;
  switch (change) {
    case 'none':
      // Every provider the server has goes back with an empty token and its host exactly as reported.
      return onServer ? { token: '', host } : 'omitted';
    case 'new token':
      // A changed token is sent with it; without the token (gone from Secret Storage) keep the server's.
      if (tokenStored) return { token: 'tok-local', host: 'git.new.dev' };
      return onServer ? { token: '', host } : 'omitted';
    case 'new host':
      if (onServer) return { token: '', host: 'git.moved.dev' };
      // The server lost it: only a stored token can bring it back.
      return tokenStored ? { token: 'tok-local', host: 'git.moved.dev' } : 'omitted';
    case 'removed':
      // Removing is omitting: the server deletes what the request leaves out.
      return 'omitted';
  }
}

describe('mcpForm sync planning: provider_tokens for add-git-providers', () => {
  const servers: ServerSide[] = ['absent', 'host null', 'host ""', 'host acme'];
  const changes: Change[] = ['none', 'new token', 'new host', 'removed'];
  for (const server of servers) {
    for (const change of changes) {
      for (const tokenStored of [true, false]) {
        it(`server ${server}, change ${change}, token ${tokenStored ? 'in' : 'not in'} Secret Storage`, () => {
          const host = SERVER_HOST[server];
          const serverSet: Record<string, string | null> = host === undefined ? {} : { gitlab: host };
          const pending = changeOf(change);
          const plan = planProviderTokens(
            serverSet,
            pending ? { gitlab: pending } : {},
            tokenStored ? { gitlab: 'tok-local' } : {},
          );
          const want = expected(server, change, tokenStored);
          if (want === 'omitted')
            assert.equal(Object.hasOwn(plan.request, 'gitlab'), false, JSON.stringify(plan));
          else assert.deepEqual(plan.request.gitlab, want);
          assert.deepEqual(plan.missingTokens, change === 'new token' && !tokenStored ? ['gitlab'] : []);
        });
      }
    }
  }

  it('keeps every other provider the server reports, unknown (hosted) ones included', () => {
    const plan = planProviderTokens(
      { github: '', gitlab: 'gitlab.acme.dev', bitbucket: null, azure_devops: 'dev.azure.com' },
      { github: { kind: 'token', host: '' } },
      { github: 'ghp_new' },
    );
    assert.deepEqual(plan.request, {
      github: { token: 'ghp_new', host: '' },
      gitlab: { token: '', host: 'gitlab.acme.dev' },
      bitbucket: { token: '', host: null },
      azure_devops: { token: '', host: 'dev.azure.com' },
    });
  });

  it('removing every provider sends {} (which clears them all)', () => {
    const plan = planProviderTokens(
      { github: null, gitlab: '' },
      { github: { kind: 'remove' }, gitlab: { kind: 'remove' } },
      {},
    );
    assert.deepEqual(plan.request, {});
  });

  it('nothing stored and nothing changed sends {}', () => {
    assert.deepEqual(planProviderTokens({}, {}, {}).request, {});
  });

  it('through the server merge, unchanged providers keep their token, user_id and host; removed ones go', () => {
    const stored: StoredProviderTokens = {
      github: { token: 'ghp_server', host: null, user_id: 'u1' },
      gitlab: { token: 'glpat_server', host: '', user_id: null },
      bitbucket: { token: 'bb_server', host: 'bb.acme.dev', user_id: null },
    };
    const plan = planProviderTokens(
      { github: null, gitlab: '', bitbucket: 'bb.acme.dev' },
      { bitbucket: { kind: 'remove' } },
      {},
    );
    const incoming = Object.fromEntries(
      Object.entries(plan.request).map(([provider, value]) => [
        provider,
        { token: value.token ?? null, host: value.host ?? null, user_id: null },
      ]),
    );
    assert.deepEqual(mergeProviderTokens(incoming, stored), {
      github: { token: 'ghp_server', host: null, user_id: 'u1' },
      gitlab: { token: 'glpat_server', host: '', user_id: null },
    });
  });
});

describe('mcpForm sync planning: the MCP config', () => {
  const local: LocalMcp = {
    sse: [{ id: 's1', url: 'https://sse.example.com/sse' }],
    shttp: [
      { id: 'h1', url: 'https://http.example.com/mcp', timeout: null },
      { id: 'h2', url: 'https://slow.example.com/mcp', timeout: 600 },
    ],
    stdio: [
      {
        id: 'p1',
        name: 'fetch',
        command: 'uvx',
        args: ['mcp-server-fetch', '--flag'],
        env: [
          { id: 'e1', name: 'TOKEN' },
          { id: 'e2', name: 'EMPTY' },
        ],
      },
    ],
  };
  const secrets = {
    providers: {},
    apiKeys: { s1: 'sse-key', h2: 'http-key' },
    env: { p1: { e1: 'env-secret' } },
  };

  it('fills secrets from Secret Storage and leaves a missing timeout to the server', () => {
    assert.deepEqual(buildMcpConfig(local, secrets), {
      sse_servers: [{ url: 'https://sse.example.com/sse', api_key: 'sse-key' }],
      shttp_servers: [
        { url: 'https://http.example.com/mcp', api_key: null },
        { url: 'https://slow.example.com/mcp', api_key: 'http-key', timeout: 600 },
      ],
      stdio_servers: [
        {
          name: 'fetch',
          command: 'uvx',
          args: ['mcp-server-fetch', '--flag'],
          env: { TOKEN: 'env-secret', EMPTY: '' },
        },
      ],
    });
  });

  it('a read-back with the server defaults (timeout 60, "" vs null keys, env order) counts as equal', () => {
    const desired = buildMcpConfig(local, secrets);
    const readBack = {
      sse_servers: [{ url: 'https://sse.example.com/sse', api_key: 'sse-key' }],
      shttp_servers: [
        { url: 'https://http.example.com/mcp', api_key: '', timeout: 60 },
        { url: 'https://slow.example.com/mcp', api_key: 'http-key', timeout: 600 },
      ],
      stdio_servers: [
        {
          name: 'fetch',
          command: 'uvx',
          args: ['mcp-server-fetch', '--flag'],
          env: { EMPTY: '', TOKEN: 'env-secret' },
        },
      ],
    };
    assert.equal(mcpConfigEquals(readBack, desired), true);
    assert.equal(mcpConfigEquals({ ...readBack, sse_servers: [] }, desired), false);
    assert.equal(mcpConfigEquals(null, desired), false);
    assert.equal(mcpConfigEquals(null, buildMcpConfig({ sse: [], shttp: [], stdio: [] }, secrets)), true);
  });

  it('after our own POST /api/settings, servers from config.toml in front are tolerated', () => {
    const desired = buildMcpConfig(local, secrets);
    const toml = { url: 'https://toml.example.com/sse', api_key: null };
    const withToml = { ...desired, sse_servers: [toml, ...(desired.sse_servers ?? [])] };
    assert.equal(
      mcpConfigEquals(withToml, desired),
      false,
      'exact check: a server ignoring mcp_config is not missed',
    );
    assert.equal(mcpConfigStored(withToml, desired), true);
    assert.equal(mcpConfigStored({ ...desired, sse_servers: [] }, desired), false);
  });
});
