import assert from 'node:assert/strict';
import { FormDraftSchema } from '../../../../../src/webviews/mcpForm/shared/formSchema';
import {
  baselineOf,
  draftFromModel,
  toProtocolDraft,
  type EditorDraft,
} from '../../../../../src/webviews/mcpForm/webview/editorDraft';
import {
  persistedState,
  readPersistedState,
} from '../../../../../src/webviews/mcpForm/webview/persistedState';
import { formModel, type ServerForm } from '../../../../../src/webviews/mcpForm/host/serverForm';

const SERVER = 'http://openhands.test:3000';

/** What the server holds, as the form reads it. */
function held(parts: Partial<ServerForm> = {}): ServerForm {
  return { providers: {}, sse: [], shttp: [], stdio: [], isV1: false, remoteNames: new Map(), ...parts };
}

function typedDraft(): EditorDraft {
  const stdio = [
    {
      id: 'p1',
      name: 'fetch',
      command: 'uvx',
      args: [],
      env: [{ id: 'e1', name: 'T', value: undefined }],
      envHidden: false,
    },
  ];
  const draft = draftFromModel(formModel(SERVER, held({ providers: { github: null }, stdio })));
  draft.providers[1]!.token.input = { state: 'replace', value: 'glpat-typed-secret' };
  draft.sse.push({
    key: 'k1',
    id: null,
    url: 'https://x.example.com',
    apiKey: { input: { state: 'replace', value: 'typed-key' }, stored: 'unset' },
  });
  draft.stdio[0]!.env[0]!.value.input = { state: 'replace', value: 'typed-env' };
  return draft;
}

describe('mcpForm webview state', () => {
  it('what goes to setState has every typed secret blanked, and reads back', () => {
    const draft = typedDraft();
    const saved = persistedState(draft, 'baseline', true);
    const json = JSON.stringify(saved);
    for (const secret of ['glpat-typed-secret', 'typed-key', 'typed-env'])
      assert.ok(!json.includes(secret), secret);
    const restored = readPersistedState(JSON.parse(json));
    assert.ok(restored);
    assert.deepEqual(restored.draft.providers[1]?.token.input, { state: 'replace', value: '' });
    assert.equal(restored.draft.sse[0]?.url, 'https://x.example.com', 'the rest is kept');
    assert.equal(restored.dirty, true);
  });

  it('what goes to setState has credentials in typed URLs and args masked', () => {
    const draft = typedDraft();
    draft.sse[0]!.url = 'https://x.example.com/sse?api_key=typed-url-key';
    draft.stdio[0]!.args = [
      { key: 'a1', value: '--api-key=typed-arg-key' },
      { key: 'a2', value: 'plain' },
    ];
    const json = JSON.stringify(persistedState(draft, 'baseline', true));
    for (const secret of ['typed-url-key', 'typed-arg-key']) assert.ok(!json.includes(secret), secret);
    const restored = readPersistedState(JSON.parse(json));
    assert.equal(restored?.draft.sse[0]?.url, 'https://x.example.com/sse?api_key=[redacted]');
    assert.deepEqual(
      restored?.draft.stdio[0]?.args.map((arg) => arg.value),
      ['--api-key=[redacted]', 'plain'],
    );
  });

  it('state from another build is ignored, not trusted', () => {
    assert.equal(readPersistedState({ version: 2, draft: {} }), undefined);
    assert.equal(readPersistedState('nonsense'), undefined);
    assert.equal(readPersistedState(undefined), undefined);
  });

  it('the draft sent to the host matches the protocol (no webview-only keys)', () => {
    const sent = toProtocolDraft(typedDraft());
    assert.equal(FormDraftSchema.safeParse(sent).success, true);
    assert.deepEqual(sent.mcp.sse[0], {
      id: null,
      url: 'https://x.example.com',
      apiKey: { state: 'replace', value: 'typed-key' },
    });
  });

  it('a model change shows in its baseline; the same model read again does not', () => {
    const a = formModel(SERVER, held());
    assert.equal(baselineOf(a), baselineOf(formModel(SERVER, held())));
    assert.notEqual(baselineOf(a), baselineOf(formModel('http://other', held())));
    assert.notEqual(baselineOf(a), baselineOf(formModel(SERVER, held({ providers: { github: null } }))));
    assert.notEqual(
      baselineOf(formModel(SERVER, held({ providers: { github: null } }))),
      baselineOf(formModel(SERVER, held({ providers: { github: '' } }))),
      'a host of "" and none are told apart',
    );
  });

  it('the model shows credentials in URLs and args masked and secrets only as set/unset', () => {
    const model = formModel(
      SERVER,
      held({
        sse: [
          {
            id: 's1',
            url: 'https://x.example.com/sse?api_key=held-url-key',
            apiKey: 'held-api-key',
            keyOnServer: true,
            timeout: null,
          },
        ],
        stdio: [
          {
            id: 'p1',
            name: 'fetch',
            command: 'uvx',
            args: ['--token=held-arg-token'],
            env: [{ id: 'e1', name: 'T', value: 'held-env' }],
            envHidden: false,
          },
        ],
      }),
    );
    const json = JSON.stringify(model);
    for (const secret of ['held-url-key', 'held-api-key', 'held-arg-token', 'held-env'])
      assert.ok(!json.includes(secret), secret);
    assert.equal(model.mcp.sse[0]?.url, 'https://x.example.com/sse?api_key=[redacted]');
    assert.equal(model.mcp.sse[0]?.apiKey, 'set');
    assert.deepEqual(model.mcp.stdio[0]?.args, ['--token=[redacted]']);
    assert.equal(model.mcp.stdio[0]?.env[0]?.value, 'set');
  });

  it('enterprise_sso is offered only when the server lists it', () => {
    const plain = formModel(SERVER, held({ providers: { azure_devops: 'dev.azure.com' } }));
    assert.deepEqual(
      plain.providers.map((p) => p.provider),
      ['github', 'gitlab', 'bitbucket'],
    );
    const sso = formModel(SERVER, held({ providers: { enterprise_sso: null } }));
    assert.deepEqual(
      sso.providers.map((p) => p.provider),
      ['github', 'gitlab', 'bitbucket', 'enterprise_sso'],
    );
  });
});
