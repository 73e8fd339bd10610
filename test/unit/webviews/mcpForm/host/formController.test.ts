import assert from 'node:assert/strict';
import { FormController, type FormTarget } from '../../../../../src/webviews/mcpForm/host/formController';
import { fieldPath } from '../../../../../src/webviews/mcpForm/shared/fieldPath';
import {
  HostToWebviewSchema,
  WebviewToHostSchema,
  type HostToWebview,
  type MessageHandlers,
  type WebviewToHost,
} from '../../../../../src/webviews/mcpForm/shared/protocol';
import { FormSave } from '../../../../../src/webviews/mcpForm/host/formSave';
import { useTestServer } from '../../../api/harness';
import { draft, MemoryFormStorage, MemoryLog, none, replace, STRINGS } from './fixtures';

describe('mcpForm panel host (FormController) and protocol', () => {
  const t = useTestServer();
  let posted: HostToWebview[];
  let store: MemoryFormStorage;
  let log: MemoryLog;
  let target: FormTarget;
  let controller: FormController;

  beforeEach(() => {
    posted = [];
    store = new MemoryFormStorage();
    log = new MemoryLog();
    target = { serverUrl: () => t.server.url, client: () => t.client };
    controller = new FormController({
      post: (message) => posted.push(HostToWebviewSchema.parse(message)),
      target: { serverUrl: () => target.serverUrl(), client: () => target.client() },
      form: new FormSave(store, log, STRINGS),
      strings: STRINGS,
      log,
      showLog: () => undefined,
      configureServer: () => undefined,
    });
  });

  async function send(message: unknown): Promise<HostToWebview[]> {
    posted.length = 0;
    controller.receive(message);
    await controller.idle();
    return [...posted];
  }

  it('answers ready with busy, init (strings, the server read, secret-free) and not busy', async () => {
    await t.client.storeProviderTokens({
      provider_tokens: { github: { token: 'ghp_server_secret', host: '' } },
    });
    const answers = await send({ type: 'ready' });
    assert.deepEqual(
      answers.map((m) => m.type),
      ['busy', 'init', 'busy'],
    );
    const init = answers[1];
    assert.ok(init?.type === 'init');
    assert.equal(init.model?.serverUrl, t.server.url);
    assert.deepEqual(init.model?.providers[0], {
      provider: 'github',
      host: '',
      token: 'set',
    });
    assert.equal(init.loadProblem, null);
    assert.ok(!JSON.stringify(answers).includes('ghp_server_secret'));
  });

  it('a save with an invalid field answers validationFailed and stores nothing', async () => {
    const form = draft({
      serverUrl: t.server.url,
      mcp: { sse: [{ id: null, url: 'ftp://nope', apiKey: none }] },
    });
    const answers = await send({ type: 'save', draft: form });
    assert.deepEqual(answers[1], {
      type: 'validationFailed',
      errors: { [fieldPath.url('sse', 0)]: STRINGS.errUrlScheme },
    });
    assert.equal(store.saves, 0);
  });

  it('a valid save answers the new state with the outcome per part, secrets never echoed', async () => {
    const form = draft({
      serverUrl: t.server.url,
      providers: [{ provider: 'github', host: '', token: replace('ghp_new_token_value') }],
      mcp: { sse: [{ id: null, url: 'https://sse.example.com', apiKey: replace('sse-api-key-value') }] },
    });
    const answers = await send({ type: 'save', draft: form });
    const state = answers.find((m) => m.type === 'state');
    assert.ok(state?.type === 'state');
    assert.equal(state.reason, 'saved');
    assert.equal(state.outcome?.tokens.status, 'synced');
    assert.equal(state.outcome?.mcp.status, 'synced');
    assert.equal(state.model?.mcp.sse[0]?.apiKey, 'set');
    const json = JSON.stringify(answers);
    assert.ok(!json.includes('ghp_new_token_value') && !json.includes('sse-api-key-value'));
  });

  it('drops malformed or unknown messages, logging no secret', async () => {
    const answers = await send({
      type: 'save',
      draft: {
        ...draft(),
        providers: [
          { provider: 'github', host: '', token: { state: 'replace', value: 'leaky-secret', x: 1 } },
        ],
      },
    });
    assert.deepEqual(answers, []);
    assert.deepEqual(await send({ type: 'deleteEverything' }), []);
    assert.deepEqual(await send('ready'), []);
    assert.equal(log.lines.filter((line) => line.includes('malformed')).length, 3);
    assert.ok(!log.lines.join('\n').includes('leaky-secret'));
    assert.equal(store.saves, 0);
  });

  it('a server that cannot be read: init and reload say why, with no model; nothing is stored', async () => {
    const unreachable = t.newClient({ baseUrl: 'http://127.0.0.1:9' });
    target = { serverUrl: () => t.server.url, client: () => unreachable };
    const init = (await send({ type: 'ready' })).find((m) => m.type === 'init');
    assert.ok(init?.type === 'init');
    assert.equal(init.model, null);
    assert.match(init.loadProblem ?? '', /Cannot reach/);
    const reloaded = (await send({ type: 'reload' })).find((m) => m.type === 'state');
    assert.ok(reloaded?.type === 'state');
    assert.equal(reloaded.reason, 'loaded');
    assert.match(reloaded.loadProblem ?? '', /Cannot reach/);
    const saved = (await send({ type: 'save', draft: draft({ serverUrl: t.server.url }) })).find(
      (m) => m.type === 'state',
    );
    assert.ok(saved?.type === 'state');
    assert.equal(saved.outcome?.mcp.status, 'failed', 'a save says it was not saved');
    assert.equal(store.saves, 0);
  });

  it('without a configured server: init has no model and a save is refused', async () => {
    target = { serverUrl: () => undefined, client: () => undefined };
    const init = (await send({ type: 'ready' })).find((m) => m.type === 'init');
    assert.ok(init?.type === 'init');
    assert.equal(init.model, null);
    const refused = (await send({ type: 'save', draft: draft() })).find((m) => m.type === 'validationFailed');
    assert.deepEqual(refused, { type: 'validationFailed', errors: { form: STRINGS.noServer } });
  });

  it('the protocol rejects secret values where only set/unset may travel, and extra keys', () => {
    const model = {
      serverUrl: 'http://x',
      providers: [{ provider: 'github', host: null, token: 'ghp_value' }],
      mcp: { sse: [], shttp: [], stdio: [] },
    };
    const init = { type: 'init', strings: STRINGS, model, loadProblem: null };
    assert.equal(HostToWebviewSchema.safeParse(init).success, false);
    const safe = { ...model, providers: [{ provider: 'github', host: null, token: 'set' }] };
    assert.equal(HostToWebviewSchema.safeParse({ ...init, model: safe }).success, true);
    assert.equal(WebviewToHostSchema.safeParse({ type: 'ready', extra: true }).success, false);
    assert.equal(WebviewToHostSchema.safeParse({ type: 'save', draft: draft() }).success, true);
  });

  it('a handler map without every message type does not compile', () => {
    // @ts-expect-error `save`, `reload`, `showLog` and `configureServer` are missing.
    const incomplete: MessageHandlers<WebviewToHost> = { ready: () => undefined };
    assert.ok(incomplete);
  });
});
