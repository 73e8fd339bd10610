// resolveDraft: a draft, against what the server holds right now, turned into what to send. Pure.
import assert from 'node:assert/strict';
import type { McpConfig, ProviderToken } from '../../../../../src/api';
import { entryId } from '../../../../../src/webviews/mcpForm/host/entryIds';
import { mcpConfigEquals, mcpConfigStored } from '../../../../../src/webviews/mcpForm/host/mcpCompare';
import { resolveDraft, type ResolvedDraft } from '../../../../../src/webviews/mcpForm/host/resolveDraft';
import { formModel, type ServerForm } from '../../../../../src/webviews/mcpForm/host/serverForm';
import { fieldPath } from '../../../../../src/webviews/mcpForm/shared/fieldPath';
import type { FormDraft, SecretInput } from '../../../../../src/webviews/mcpForm/shared/formSchema';
import { mergeProviderTokens, type StoredProviderTokens } from '../../../../server/gitProviders';
import { clear, draft, keep, none, replace, SERVER, STRINGS, untouched } from './fixtures';

const SSE_URL = 'https://sse.example.com/sse';
const SSE_ID = entryId.remote('sse', SSE_URL);
const FETCH_ID = entryId.stdio('fetch', 'uvx');
const TOKEN_ID = entryId.env('fetch', 'TOKEN');

/** What the server holds, as `readServerForm` gives it; `providers` as `provider_tokens_set`. */
function serverForm(providers: Record<string, string | null> = {}): ServerForm {
  return {
    providers,
    sse: [{ id: SSE_ID, url: SSE_URL, apiKey: 'sse-key', keyOnServer: true, timeout: null }],
    shttp: [],
    stdio: [
      {
        id: FETCH_ID,
        name: 'fetch',
        command: 'uvx',
        args: ['mcp-server-fetch'],
        env: [{ id: TOKEN_ID, name: 'TOKEN', value: 'env-secret' }],
        envHidden: false,
      },
    ],
    isV1: false,
    remoteNames: new Map(),
  };
}

function resolve(
  form: FormDraft,
  server: ServerForm = serverForm(),
  storedTokens: Record<string, string> = {},
): ResolvedDraft {
  const result = resolveDraft(form, server, storedTokens, STRINGS);
  assert.ok(result.ok, JSON.stringify(result));
  return result.draft;
}

/** The draft with GitLab as given and the rest as the form shows `server` untouched. */
function withGitlab(server: ServerForm, host: string, token: SecretInput): FormDraft {
  const form = untouched(formModel(SERVER, server));
  const index = form.providers.findIndex((p) => p.provider === 'gitlab');
  form.providers[index] = { provider: 'gitlab', host, token };
  return form;
}

describe('mcpForm resolveDraft: provider_tokens for add-git-providers', () => {
  type ServerSide = 'absent' | 'host null' | 'host ""' | 'host acme';
  type Change = 'none' | 'kept' | 'new token' | 'new host' | 'removed';
  const SERVER_HOST: Record<ServerSide, string | null | undefined> = {
    absent: undefined,
    'host null': null,
    'host ""': '',
    'host acme': 'gitlab.acme.dev',
  };

  /** The form's GitLab row: as it opened ('none' and 'kept'), or edited. */
  function row(server: ServerSide, change: Change): [host: string, token: SecretInput] {
    const shown = SERVER_HOST[server] ?? '';
    switch (change) {
      case 'none':
        // as the form opened: a token is shown as set only when the server has one
        return [shown, SERVER_HOST[server] === undefined ? none : keep];
      case 'kept':
        // "set" as when the form opened, whether or not the server still has it
        return [shown, keep];
      case 'new token':
        return ['git.new.dev', replace(' tok-new ')];
      case 'new host':
        return ['git.moved.dev', keep];
      case 'removed':
        return [shown, clear];
    }
  }

  /** The rule, stated once per combination: what must be sent for GitLab, or that it is refused. */
  function expected(
    server: ServerSide,
    change: Change,
    tokenStored: boolean,
  ): { send: ProviderToken | 'omitted'; changed: boolean } | 'refused' {
    const host = SERVER_HOST[server];
    const onServer = host !== undefined;
    const keepServer = { send: onServer ? { token: '', host } : ('omitted' as const), changed: false };
    switch (change) {
      case 'none':
        // Every provider the server has goes back with an empty token and its host exactly as reported.
        return keepServer;
      case 'kept':
        if (onServer) return keepServer;
        // The server lost it: only a stored token can bring it back.
        return tokenStored ? { send: { token: 'tok-local', host: null }, changed: true } : 'refused';
      case 'new token':
        return { send: { token: 'tok-new', host: 'git.new.dev' }, changed: true };
      case 'new host':
        if (onServer) return { send: { token: '', host: 'git.moved.dev' }, changed: true };
        return tokenStored
          ? { send: { token: 'tok-local', host: 'git.moved.dev' }, changed: true }
          : 'refused';
      case 'removed':
        // Removing is omitting: the server deletes what the request leaves out.
        return { send: 'omitted', changed: onServer };
    }
  }

  const servers: ServerSide[] = ['absent', 'host null', 'host ""', 'host acme'];
  const changes: Change[] = ['none', 'kept', 'new token', 'new host', 'removed'];
  for (const side of servers) {
    for (const change of changes) {
      for (const tokenStored of [true, false]) {
        it(`server ${side}, change ${change}, token ${tokenStored ? 'in' : 'not in'} Secret Storage`, () => {
          const host = SERVER_HOST[side];
          const server = serverForm(host === undefined ? {} : { gitlab: host });
          const stored: Record<string, string> = tokenStored ? { gitlab: 'tok-local' } : {};
          const [typedHost, token] = row(side, change);
          const result = resolveDraft(withGitlab(server, typedHost, token), server, stored, STRINGS);
          const want = expected(side, change, tokenStored);
          if (want === 'refused') {
            assert.deepEqual(result, {
              ok: false,
              errors: { [fieldPath.providerToken('gitlab')]: STRINGS.errSecretMissing },
            });
            return;
          }
          assert.ok(result.ok, JSON.stringify(result));
          const { providerTokens, tokensChanged, secrets } = result.draft;
          if (want.send === 'omitted') assert.equal(Object.hasOwn(providerTokens, 'gitlab'), false);
          else assert.deepEqual(providerTokens.gitlab, want.send);
          assert.equal(tokensChanged, want.changed);
          // Secret Storage: a new token replaces the kept one, a removal drops it.
          if (change === 'new token') assert.equal(secrets.providers.gitlab, 'tok-new');
          else if (change === 'removed') assert.equal(secrets.providers.gitlab, undefined);
          else if (change !== 'none') assert.equal(secrets.providers.gitlab, stored.gitlab);
          // and the MCP part is untouched by any of this
          assert.equal(result.draft.mcpChanged, false);
        });
      }
    }
  }

  it('keeps every other provider the server reports, unknown (hosted) ones included', () => {
    const server = serverForm({
      github: '',
      gitlab: 'gitlab.acme.dev',
      bitbucket: null,
      azure_devops: 'dev.azure.com',
    });
    const form = untouched(formModel(SERVER, server));
    form.providers[0] = { provider: 'github', host: '', token: replace('ghp_new') };
    const result = resolve(form, server);
    assert.deepEqual(result.providerTokens, {
      github: { token: 'ghp_new', host: '' },
      gitlab: { token: '', host: 'gitlab.acme.dev' },
      bitbucket: { token: '', host: null },
      azure_devops: { token: '', host: 'dev.azure.com' },
    });
    assert.deepEqual(result.secrets.providers, { github: 'ghp_new' });
  });

  it('a provider the form showed without a token is left as the server has it now', () => {
    // The server gained a GitHub token (another window) after the form opened without one.
    const server = serverForm({ github: null });
    const result = resolve(draft(), server);
    assert.deepEqual(result.providerTokens, { github: { token: '', host: null } });
    assert.equal(result.tokensChanged, false);
  });

  it('removing every provider sends {} (which clears them all)', () => {
    const server = serverForm({ github: null, gitlab: '' });
    const form = draft({
      providers: [
        { provider: 'github', host: '', token: clear },
        { provider: 'gitlab', host: '', token: clear },
        { provider: 'bitbucket', host: '', token: none },
      ],
    });
    const result = resolve(form, server, { github: 'ghp', gitlab: 'glpat' });
    assert.deepEqual(result.providerTokens, {});
    assert.equal(result.tokensChanged, true);
    assert.deepEqual(result.secrets.providers, {});
  });

  it('nothing on the server and nothing changed sends {} and changes nothing', () => {
    const result = resolve(draft(), serverForm());
    assert.deepEqual(result.providerTokens, {});
    assert.equal(result.tokensChanged, false);
  });

  it('through the server merge, unchanged providers keep their token, user_id and host; removed ones go', () => {
    const stored: StoredProviderTokens = {
      github: { token: 'ghp_server', host: null, user_id: 'u1' },
      gitlab: { token: 'glpat_server', host: '', user_id: null },
      bitbucket: { token: 'bb_server', host: 'bb.acme.dev', user_id: null },
    };
    const server = serverForm({ github: null, gitlab: '', bitbucket: 'bb.acme.dev' });
    const form = untouched(formModel(SERVER, server));
    form.providers[2] = { provider: 'bitbucket', host: 'bb.acme.dev', token: clear };
    const { providerTokens } = resolve(form, server);
    const incoming = Object.fromEntries(
      Object.entries(providerTokens).map(([provider, value]) => [
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

describe('mcpForm resolveDraft: the MCP config', () => {
  it('an untouched form changes nothing and sends back what the server holds, secrets included', () => {
    const server = serverForm();
    const result = resolve(untouched(formModel(SERVER, server)), server);
    assert.equal(result.mcpChanged, false);
    assert.equal(result.tokensChanged, false);
    assert.deepEqual(result.mcp, {
      sse_servers: [{ url: SSE_URL, api_key: 'sse-key' }],
      shttp_servers: [],
      stdio_servers: [
        { name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'], env: { TOKEN: 'env-secret' } },
      ],
    });
    assert.deepEqual(result.secrets.mcp, {
      apiKeys: { [SSE_ID]: 'sse-key' },
      env: { [FETCH_ID]: { TOKEN: 'env-secret' } },
    });
  });

  it('kept secrets stay, replaced and cleared ones change, removed entries take theirs along, new ones are added', () => {
    const form = untouched(formModel(SERVER, serverForm()));
    form.mcp.sse = [];
    form.mcp.shttp = [
      { id: null, url: ' https://http.example.com/mcp ', apiKey: replace(' http-key '), timeout: '90' },
      { id: null, url: 'https://default.example.com/mcp', apiKey: none, timeout: '' },
    ];
    form.mcp.stdio = [
      {
        id: FETCH_ID,
        name: 'fetch',
        command: 'uvx',
        args: ['mcp-server-fetch', '--verbose'],
        env: [
          { id: TOKEN_ID, name: 'TOKEN', value: keep },
          { id: null, name: 'OTHER', value: replace('other-secret') },
          { id: null, name: 'EMPTY', value: none },
        ],
      },
    ];
    const result = resolve(form);
    assert.deepEqual(result.mcp, {
      sse_servers: [],
      shttp_servers: [
        { url: 'https://http.example.com/mcp', api_key: 'http-key', timeout: 90 },
        // no timeout: the server applies its default
        { url: 'https://default.example.com/mcp', api_key: null },
      ],
      stdio_servers: [
        {
          name: 'fetch',
          command: 'uvx',
          args: ['mcp-server-fetch', '--verbose'],
          env: { TOKEN: 'env-secret', OTHER: 'other-secret', EMPTY: '' },
        },
      ],
    });
    assert.deepEqual(
      result.secrets.mcp.apiKeys,
      { [entryId.remote('shttp', 'https://http.example.com/mcp')]: 'http-key' },
      'the removed SSE server took its key along',
    );
    assert.deepEqual(result.secrets.mcp.env, {
      [FETCH_ID]: { TOKEN: 'env-secret', OTHER: 'other-secret', EMPTY: '' },
    });
    assert.equal(result.mcpChanged, true);
  });

  it('a cleared key or variable is sent empty', () => {
    const form = untouched(formModel(SERVER, serverForm()));
    form.mcp.sse[0] = { ...form.mcp.sse[0]!, apiKey: clear };
    form.mcp.stdio[0]!.env[0] = { ...form.mcp.stdio[0]!.env[0]!, value: clear };
    const result = resolve(form);
    assert.deepEqual(result.mcp.sse_servers, [{ url: SSE_URL, api_key: null }]);
    assert.deepEqual(result.mcp.stdio_servers?.[0]?.env, { TOKEN: '' });
    assert.deepEqual(result.secrets.mcp, { apiKeys: {}, env: { [FETCH_ID]: { TOKEN: '' } } });
    assert.equal(result.mcpChanged, true);
  });

  it('a changed URL keeps its entry key, stored under the new URL', () => {
    const form = untouched(formModel(SERVER, serverForm()));
    form.mcp.sse[0] = { ...form.mcp.sse[0]!, url: 'https://moved.example.com/sse' };
    const result = resolve(form);
    assert.deepEqual(result.mcp.sse_servers, [{ url: 'https://moved.example.com/sse', api_key: 'sse-key' }]);
    assert.deepEqual(result.secrets.mcp.apiKeys, {
      [entryId.remote('sse', 'https://moved.example.com/sse')]: 'sse-key',
    });
  });

  it('an id the server does not know is a new entry: "set" cannot reach another entry\'s secrets', () => {
    const form = untouched(formModel(SERVER, serverForm()));
    form.mcp.sse = [{ id: 'forged', url: SSE_URL, apiKey: keep }];
    form.mcp.stdio[0] = { ...form.mcp.stdio[0]!, id: 'forged-too' };
    form.mcp.stdio[0].env[0] = { id: 'forged-row', name: 'TOKEN', value: keep };
    assert.deepEqual(resolveDraft(form, serverForm(), {}, STRINGS), {
      ok: false,
      errors: {
        [fieldPath.apiKey('sse', 0)]: STRINGS.errSecretMissing,
        [fieldPath.envValue(0, 0)]: STRINGS.errSecretMissing,
      },
    });
    // With a value typed, it is simply a new entry.
    form.mcp.sse = [{ id: 'forged', url: SSE_URL, apiKey: replace('typed') }];
    form.mcp.stdio[0].env[0] = { id: 'forged-row', name: 'TOKEN', value: replace('typed-env') };
    const result = resolve(form);
    assert.deepEqual(result.mcp.sse_servers, [{ url: SSE_URL, api_key: 'typed' }]);
    assert.deepEqual(result.secrets.mcp.env, { [FETCH_ID]: { TOKEN: 'typed-env' } });
  });

  it('a key only the server has (1.11) is refused when the MCP part changes, and fine when it does not', () => {
    const server: ServerForm = {
      ...serverForm(),
      sse: [{ id: SSE_ID, url: SSE_URL, apiKey: undefined, keyOnServer: true, timeout: null }],
      stdio: [],
      isV1: true,
    };
    const form = untouched(formModel(SERVER, server));
    assert.equal(form.mcp.sse[0]?.apiKey.state, 'set');
    const unchanged = resolve(form, server);
    assert.equal(unchanged.mcpChanged, false);

    form.mcp.stdio.push({ id: null, name: 'git', command: 'uvx', args: [], env: [] });
    assert.deepEqual(resolveDraft(form, server, {}, STRINGS), {
      ok: false,
      errors: { [fieldPath.apiKey('sse', 0)]: STRINGS.errServerOnlyKey },
    });
  });

  it('masked credentials in a URL and args are put back whole; a mask with nothing behind it is refused', () => {
    const url = 'https://mcp.example.com/sse?api_key=url-secret';
    const server: ServerForm = {
      ...serverForm(),
      sse: [{ id: entryId.remote('sse', url), url, apiKey: undefined, keyOnServer: false, timeout: null }],
      stdio: [
        {
          id: FETCH_ID,
          name: 'fetch',
          command: 'npx',
          args: ['-y', '--token=arg-secret'],
          env: [],
          envHidden: false,
        },
      ],
    };
    const model = formModel(SERVER, server);
    assert.equal(model.mcp.sse[0]?.url, 'https://mcp.example.com/sse?api_key=[redacted]');
    assert.deepEqual(model.mcp.stdio[0]?.args, ['-y', '--token=[redacted]']);
    const form = untouched(model);
    const result = resolve(form, server);
    assert.equal(result.mcpChanged, false);
    assert.equal(result.mcp.sse_servers?.[0]?.url, url);
    assert.deepEqual(result.mcp.stdio_servers?.[0]?.args, ['-y', '--token=arg-secret']);

    form.mcp.stdio[0]!.args.push('--password=[redacted]');
    assert.deepEqual(resolveDraft(form, server, {}, STRINGS), {
      ok: false,
      errors: { [fieldPath.arg(0, 2)]: STRINGS.errSecretMissing },
    });
  });

  it('the model of what the server holds shows secrets only as set/unset', () => {
    const model = formModel(SERVER, serverForm({ github: null, gitlab: '' }));
    assert.ok(!JSON.stringify(model).includes('sse-key'));
    assert.ok(!JSON.stringify(model).includes('env-secret'));
    assert.deepEqual(
      model.providers.map((p) => [p.provider, p.host, p.token]),
      [
        ['github', null, 'set'],
        ['gitlab', '', 'set'],
        ['bitbucket', null, 'unset'],
      ],
    );
    assert.deepEqual(model.mcp.sse, [{ id: SSE_ID, url: SSE_URL, apiKey: 'set' }]);
    assert.deepEqual(model.mcp.stdio[0]?.env, [{ id: TOKEN_ID, name: 'TOKEN', value: 'set' }]);
  });
});

describe('mcpForm comparing the MCP config read back with what was sent', () => {
  const desired: McpConfig = {
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
  };

  it('a read-back with the server defaults (timeout 60, "" vs null keys, env order) counts as equal', () => {
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
    assert.equal(
      mcpConfigEquals({ ...readBack, stdio_servers: [{ ...readBack.stdio_servers[0]!, env: {} }] }, desired),
      false,
    );
    assert.equal(mcpConfigEquals(null, desired), false);
    assert.equal(mcpConfigEquals(null, { sse_servers: [], shttp_servers: [], stdio_servers: [] }), true);
  });

  it('after our own settings write, servers from config.toml in front are tolerated', () => {
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

  it('from 1.11, which hides secrets, only whether a key is set is compared, and no env', () => {
    const readBack = {
      sse_servers: [{ url: 'https://sse.example.com/sse', api_key: null, api_key_set: true }],
      shttp_servers: [
        { url: 'https://http.example.com/mcp', api_key: null, api_key_set: false, timeout: 60 },
        { url: 'https://slow.example.com/mcp', api_key: null, api_key_set: true, timeout: 600 },
      ],
      stdio_servers: [{ name: 'fetch', command: 'uvx', args: ['mcp-server-fetch', '--flag'], env: {} }],
    };
    assert.equal(mcpConfigStored(readBack, desired, true), true);
    const keyLost = {
      ...readBack,
      sse_servers: [{ url: 'https://sse.example.com/sse', api_key: null, api_key_set: false }],
    };
    assert.equal(mcpConfigStored(keyLost, desired, true), false);
  });
});
