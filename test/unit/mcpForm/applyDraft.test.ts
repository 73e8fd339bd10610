import assert from 'node:assert/strict';
import { applyDraft, type ApplyResult } from '../../../src/webviews/mcpForm/host/applyDraft';
import { fieldPath } from '../../../src/webviews/mcpForm/shared/fieldPath';
import type { FormDraft } from '../../../src/webviews/mcpForm/shared/formSchema';
import { buildFormModel } from '../../../src/webviews/mcpForm/host/formModel';
import type { LocalState } from '../../../src/webviews/mcpForm/host/formStorage';
import { clear, draft, emptyState, idSequence, keep, none, replace, SERVER, STRINGS } from './fixtures';

/** GitHub set on the server with host null, GitLab with "", one SSE server with a key, one stdio server. */
function storedState(): LocalState {
  const state = emptyState();
  state.config.providers = { github: { host: null }, gitlab: { host: '' } };
  state.config.mcp = {
    sse: [{ id: 's1', url: 'https://sse.example.com/sse' }],
    shttp: [],
    stdio: [
      {
        id: 'p1',
        name: 'fetch',
        command: 'uvx',
        args: ['mcp-server-fetch'],
        env: [{ id: 'e1', name: 'TOKEN' }],
      },
    ],
  };
  state.secrets.apiKeys = { s1: 'sse-key' };
  state.secrets.env = { p1: { e1: 'env-secret' } };
  return state;
}

/** The draft an untouched form sends back for `storedState()`. */
function untouched(): FormDraft {
  return draft({
    providers: [
      { provider: 'github', host: '', token: keep },
      { provider: 'gitlab', host: '', token: keep },
      { provider: 'bitbucket', host: '', token: none },
    ],
    mcp: {
      sse: [{ id: 's1', url: 'https://sse.example.com/sse', apiKey: keep }],
      stdio: [
        {
          id: 'p1',
          name: 'fetch',
          command: 'uvx',
          args: ['mcp-server-fetch'],
          env: [{ id: 'e1', name: 'TOKEN', value: keep }],
        },
      ],
    },
  });
}

function apply(state: LocalState, form: FormDraft): Extract<ApplyResult, { ok: true }> {
  const result = applyDraft(state.config, state.secrets, form, STRINGS, idSequence('n'));
  assert.ok(result.ok, JSON.stringify(result));
  return result;
}

describe('mcpForm applying a draft to the local state', () => {
  it('an untouched form changes nothing and records nothing pending', () => {
    const state = storedState();
    const result = apply(state, untouched());
    assert.deepEqual(result.changed, { tokens: false, mcp: false });
    assert.deepEqual(result.config, state.config);
    assert.deepEqual(result.secrets, state.secrets);
  });

  it('an untouched host stays exactly as the server reported it ("" and null kept apart)', () => {
    const result = apply(storedState(), untouched());
    assert.deepEqual(result.config.providers, { github: { host: null }, gitlab: { host: '' } });
  });

  it('a new token goes to the secrets and is pending with the host to send', () => {
    const form = untouched();
    form.providers[2] = { provider: 'bitbucket', host: 'bb.acme.dev', token: replace(' bb-token ') };
    const result = apply(storedState(), form);
    assert.equal(result.secrets.providers.bitbucket, 'bb-token');
    assert.deepEqual(result.config.pending.providers, { bitbucket: { kind: 'token', host: 'bb.acme.dev' } });
    assert.deepEqual(result.config.providers.bitbucket, { host: 'bb.acme.dev' });
    assert.equal(result.changed.tokens, true);
  });

  it('a changed host alone is a host change; changing it while a token waits keeps the token pending', () => {
    const form = untouched();
    form.providers[0] = { provider: 'github', host: 'github.acme.dev', token: keep };
    const first = apply(storedState(), form);
    assert.deepEqual(first.config.pending.providers, { github: { kind: 'host', host: 'github.acme.dev' } });

    const waiting = storedState();
    waiting.config.pending.providers = { github: { kind: 'token', host: null } };
    waiting.secrets.providers = { github: 'ghp_waiting' };
    const second = apply(waiting, form);
    assert.deepEqual(second.config.pending.providers, { github: { kind: 'token', host: 'github.acme.dev' } });
  });

  it('clearing a token removes the provider (pending removal) and its secret', () => {
    const state = storedState();
    state.secrets.providers = { gitlab: 'glpat-local' };
    const form = untouched();
    form.providers[1] = { provider: 'gitlab', host: '', token: clear };
    const result = apply(state, form);
    assert.equal(result.config.providers.gitlab, undefined);
    assert.equal(result.secrets.providers.gitlab, undefined);
    assert.deepEqual(result.config.pending.providers, { gitlab: { kind: 'remove' } });
  });

  it('"set" for a secret that is not stored is refused on that field, storing nothing', () => {
    const form = untouched();
    form.providers[2] = { provider: 'bitbucket', host: '', token: keep };
    form.mcp.sse.push({ id: null, url: 'https://new.example.com', apiKey: keep });
    const result = applyDraft(storedState().config, storedState().secrets, form, STRINGS, idSequence());
    assert.deepEqual(result, {
      ok: false,
      errors: {
        [fieldPath.providerToken('bitbucket')]: STRINGS.errSecretMissing,
        [fieldPath.apiKey('sse', 1)]: STRINGS.errSecretMissing,
      },
    });
  });

  it('MCP: new entries get ids, kept secrets stay, replaced and cleared ones change, removed entries lose theirs', () => {
    const form = untouched();
    form.mcp.sse = [];
    form.mcp.shttp = [
      { id: null, url: ' https://http.example.com/mcp ', apiKey: replace('http-key'), timeout: '90' },
    ];
    form.mcp.stdio = [
      {
        id: 'p1',
        name: 'fetch',
        command: 'uvx',
        args: ['mcp-server-fetch', '--verbose'],
        env: [
          { id: 'e1', name: 'TOKEN', value: keep },
          { id: null, name: 'OTHER', value: replace('other-secret') },
        ],
      },
    ];
    const result = apply(storedState(), form);
    assert.deepEqual(result.config.mcp, {
      sse: [],
      shttp: [{ id: 'n1', url: 'https://http.example.com/mcp', timeout: 90 }],
      stdio: [
        {
          id: 'p1',
          name: 'fetch',
          command: 'uvx',
          args: ['mcp-server-fetch', '--verbose'],
          env: [
            { id: 'e1', name: 'TOKEN' },
            { id: 'n2', name: 'OTHER' },
          ],
        },
      ],
    });
    assert.deepEqual(result.secrets.apiKeys, { n1: 'http-key' }, 'the removed SSE server took its key along');
    assert.deepEqual(result.secrets.env, { p1: { e1: 'env-secret', n2: 'other-secret' } });
    assert.equal(result.changed.mcp, true);
    assert.equal(result.config.pending.mcp, true);
  });

  it('an id the store does not know is a new entry (a stale webview cannot address other secrets)', () => {
    const form = untouched();
    form.mcp.sse = [{ id: 'forged', url: 'https://sse.example.com/sse', apiKey: replace('k') }];
    const result = apply(storedState(), form);
    assert.equal(result.config.mcp.sse[0]?.id, 'n1');
  });

  it('the model built from the result shows secrets only as set/unset', () => {
    const form = untouched();
    form.providers[2] = { provider: 'bitbucket', host: '', token: replace('bb-secret-token') };
    const result = apply(storedState(), form);
    const model = buildFormModel(SERVER, result.config, result.secrets, { github: null, gitlab: '' });
    const json = JSON.stringify(model);
    for (const secret of ['bb-secret-token', 'sse-key', 'env-secret'])
      assert.ok(!json.includes(secret), secret);
    assert.deepEqual(
      model.providers.map((p) => [p.provider, p.token, p.pending, p.server?.set]),
      [
        ['github', 'set', false, true],
        ['gitlab', 'set', false, true],
        ['bitbucket', 'set', true, false],
      ],
    );
  });
});
