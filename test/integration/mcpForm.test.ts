import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FormDraft } from '../../src/webviews/mcpForm/shared/formSchema';
import type { HostToWebview } from '../../src/webviews/mcpForm/shared/protocol';
import type { McpFormTestApi } from '../../src/webviews/mcpForm/host/register';
import { testServerUrl } from './env';
import { extensionApi, useTestServerSettings } from './extensionApi';
import { server } from './serverControl';
import { startMcpDouble } from '../shared/mcpServerDouble';
import { closedHostPort } from '../shared/closedPort';

/** What the test server recorded (the shared helper types only what the sidebar tests need). */
interface RecordedCall {
  method: string;
  path: string;
  body?: unknown;
}

interface ServerState {
  providerTokens: Record<string, { token: string; host: string | null; user_id: string | null }>;
  settings: { llm_model: string | null; mcp_config: unknown } | null;
}

async function control<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${testServerUrl()}${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

const serverState = () => control<ServerState>('GET', '/__control/state');
const recorded = () => control<RecordedCall[]>('GET', '/__control/requests');

function settingsCalls(calls: RecordedCall[]): string[] {
  return calls
    .filter((c) => c.path === '/api/settings' || c.path === '/api/add-git-providers')
    .map((c) => `${c.method} ${c.path}`);
}

const GITHUB_TOKEN = 'ghp_integration_token_0001';
const SSE_KEY = 'sse-integration-key-0002';
const ENV_VALUE = 'env-integration-value-0003';

function fullDraft(serverUrl: string): FormDraft {
  return {
    serverUrl,
    providers: [
      { provider: 'github', host: '', token: { state: 'replace', value: GITHUB_TOKEN } },
      { provider: 'gitlab', host: 'gitlab.acme.dev', token: { state: 'set' } },
      { provider: 'bitbucket', host: '', token: { state: 'unset' } },
    ],
    mcp: {
      sse: [{ id: null, url: 'https://sse.example.com/sse', apiKey: { state: 'replace', value: SSE_KEY } }],
      shttp: [{ id: null, url: 'https://http.example.com/mcp', apiKey: { state: 'unset' }, timeout: '30' }],
      stdio: [
        {
          id: null,
          name: 'fetch',
          command: 'uvx',
          args: ['mcp-server-fetch'],
          env: [{ id: null, name: 'FETCH_TOKEN', value: { state: 'replace', value: ENV_VALUE } }],
        },
      ],
    },
  };
}

/** `127.0.0.1:<port>` where nothing listens. */
function find<T extends HostToWebview['type']>(
  answers: HostToWebview[] | undefined,
  type: T,
): Extract<HostToWebview, { type: T }> {
  const found = answers?.find((m): m is Extract<HostToWebview, { type: T }> => m.type === type);
  const refused = answers?.find((m) => m.type === 'validationFailed');
  assert.ok(
    found,
    `no ${type} among ${JSON.stringify(answers?.map((m) => m.type))} ${JSON.stringify(refused ?? '')}`,
  );
  return found;
}

describe('MCP & Git Providers form (in VS Code)', () => {
  let form: McpFormTestApi;
  let serverUrl: string;

  before(async () => {
    const api = await extensionApi();
    await useTestServerSettings(api);
    assert.ok(api.mcpForm, 'activate() returns the form hooks when the extension runs its tests');
    form = api.mcpForm;
    serverUrl = api.connection.config.serverUrl ?? '';
    assert.ok(serverUrl);
  });

  beforeEach(async () => {
    await server.reset();
    await form.clearStoredSecrets(serverUrl);
    // GitLab was set from the web UI: no save from VS Code may lose it.
    await control('POST', '/api/add-git-providers', {
      provider_tokens: { gitlab: { token: 'glpat-from-web-ui', host: 'gitlab.acme.dev' } },
    });
    await vscode.commands.executeCommand('openhands.editMcpAndGitProviders');
    assert.equal(form.isPanelOpen(), true, 'the command opens the panel');
    find(await form.sendFromWebview({ type: 'ready' }), 'init');
    await server.clearRequests();
    // the example.com servers of these drafts do not answer from here: save anyway (no modal to click)
    form.answerMcpCheck(true);
  });

  afterEach(() => form.closePanel());

  after(async () => {
    form.answerMcpCheck(undefined);
    await form.clearStoredSecrets(serverUrl);
    await server.reset();
  });

  it('the init message describes the server state without any secret', async () => {
    const init = find(await form.sendFromWebview({ type: 'ready' }), 'init');
    const gitlab = init.model?.providers.find((p) => p.provider === 'gitlab');
    assert.deepEqual(gitlab, {
      provider: 'gitlab',
      host: 'gitlab.acme.dev',
      token: 'set',
    });
    assert.ok(!JSON.stringify(init).includes('glpat-from-web-ui'));
  });

  it('save stores secrets in SecretStorage, syncs, and persists MCP although add-git-providers ignores it', async () => {
    const answers = await form.sendFromWebview({ type: 'save', draft: fullDraft(serverUrl) });
    const state = find(answers, 'state');
    assert.equal(state.reason, 'saved');
    assert.deepEqual(state.outcome?.tokens, { status: 'synced' });
    assert.deepEqual(state.outcome?.mcp, { status: 'synced', via: 'settings' });
    const json = JSON.stringify(answers);
    for (const secret of [GITHUB_TOKEN, SSE_KEY, ENV_VALUE])
      assert.ok(!json.includes(secret), 'no secret to the webview');

    // What the server received and holds: the MCP config, and GitLab untouched.
    const calls = await recorded();
    assert.deepEqual(settingsCalls(calls), [
      'GET /api/settings',
      'POST /api/add-git-providers',
      'GET /api/settings',
      'POST /api/settings',
      'GET /api/settings',
    ]);
    const add = calls.find((c) => c.path === '/api/add-git-providers');
    assert.deepEqual((add?.body as { provider_tokens?: unknown } | undefined)?.provider_tokens, {
      github: { token: GITHUB_TOKEN, host: null },
      gitlab: { token: '', host: 'gitlab.acme.dev' },
    });
    const held = await serverState();
    assert.equal(held.providerTokens.gitlab?.token, 'glpat-from-web-ui');
    assert.equal(held.providerTokens.gitlab?.host, 'gitlab.acme.dev');
    assert.equal(held.providerTokens.github?.token, GITHUB_TOKEN);
    assert.deepEqual(held.settings?.mcp_config, {
      sse_servers: [{ url: 'https://sse.example.com/sse', api_key: SSE_KEY }],
      stdio_servers: [
        { name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'], env: { FETCH_TOKEN: ENV_VALUE } },
      ],
      shttp_servers: [{ url: 'https://http.example.com/mcp', api_key: null, timeout: 30 }],
    });
    assert.ok(held.settings?.llm_model, 'the other settings survived the read-modify-write');

    // What VS Code keeps: the secrets, in SecretStorage; nothing else (the form reads the server).
    const kept = await form.storedSecrets(serverUrl);
    assert.equal(kept.providers.github, GITHUB_TOKEN);
    assert.deepEqual(Object.values(kept.apiKeys), [SSE_KEY]);
    assert.deepEqual(
      Object.values(kept.env).flatMap((rows) => Object.values(rows)),
      [ENV_VALUE],
    );

    // Opened again, the form shows what the server now holds, secrets only as "set".
    const reopened = find(await form.sendFromWebview({ type: 'ready' }), 'init');
    assert.deepEqual(
      reopened.model?.mcp.stdio.map((s) => [s.name, s.env.map((e) => [e.name, e.value])]),
      [['fetch', [['FETCH_TOKEN', 'set']]]],
    );
    assert.deepEqual(
      reopened.model?.mcp.sse.map((s) => [s.url, s.apiKey]),
      [['https://sse.example.com/sse', 'set']],
    );
    assert.deepEqual(reopened.model, state.model, 'the state after the save is what the server holds');
  });

  it('a save with an invalid field stores nothing and sends nothing', async () => {
    const invalid = fullDraft(serverUrl);
    invalid.mcp.stdio[0] = { ...invalid.mcp.stdio[0]!, name: 'not valid', command: 'npx -y x' };
    invalid.mcp.shttp[0] = { ...invalid.mcp.shttp[0]!, timeout: '0' };
    const answers = await form.sendFromWebview({ type: 'save', draft: invalid });
    const refused = find(answers, 'validationFailed');
    assert.deepEqual(Object.keys(refused.errors).sort(), [
      'mcp.shttp.0.timeout',
      'mcp.stdio.0.command',
      'mcp.stdio.0.name',
    ]);
    assert.deepEqual(await form.storedSecrets(serverUrl), { providers: {}, apiKeys: {}, env: {} });
    assert.deepEqual(settingsCalls(await recorded()), []);
  });

  it('a token the server rejects is reported on that provider, is not kept, and the next save sends it again', async () => {
    const draft = fullDraft(serverUrl);
    draft.providers[0] = {
      provider: 'github',
      host: '',
      token: { state: 'replace', value: 'bad-token-0004' },
    };
    const state = find(await form.sendFromWebview({ type: 'save', draft }), 'state');
    assert.equal(state.outcome?.tokens.status, 'failed');
    assert.match(state.fieldErrors['providers.github.token'] ?? '', /valid github token/);
    assert.deepEqual(state.outcome?.mcp, { status: 'synced', via: 'settings' }, 'the other part is saved');
    assert.equal((await serverState()).providerTokens.gitlab?.token, 'glpat-from-web-ui');
    assert.equal(
      (await form.storedSecrets(serverUrl)).providers.github,
      undefined,
      'a refused token is not kept',
    );

    // The webview keeps the unsaved part and sends it again.
    const again = find(await form.sendFromWebview({ type: 'save', draft }), 'state');
    assert.equal(again.outcome?.tokens.status, 'failed', 'still the same bad token');
    assert.equal(again.outcome?.mcp.status, 'unchanged', 'the MCP part is already saved');
  });

  it('drops a message that is not part of the protocol', async () => {
    const answers = await form.sendFromWebview({ type: 'save', draft: { serverUrl, evil: true } });
    assert.deepEqual(answers, []);
    assert.deepEqual(settingsCalls(await recorded()), []);
  });

  it('the check before a save: a reachable MCP server is said to answer, an unreachable one asks first and Cancel sends nothing', async () => {
    const mcp = await startMcpDouble();
    const dead = await closedHostPort();
    const key = 'check-integration-key-0005';
    try {
      const draft: FormDraft = {
        serverUrl,
        providers: [],
        mcp: {
          sse: [{ id: null, url: `${mcp.url}/sse?key=${key}`, apiKey: { state: 'replace', value: key } }],
          shttp: [{ id: null, url: `http://${dead}/mcp`, apiKey: { state: 'unset' }, timeout: '' }],
          stdio: [],
        },
      };
      form.answerMcpCheck(false);
      const answers = await form.sendFromWebview({ type: 'save', draft });
      const reason = `Could not reach ${dead} from VS Code: connection refused.`;
      assert.deepEqual(find(answers, 'mcpChecks').checks, [
        { kind: 'sse', index: 0, status: 'ok', message: 'Reachable from VS Code; answers as MCP.' },
        { kind: 'shttp', index: 0, status: 'failed', message: reason },
      ]);
      assert.deepEqual(form.answerMcpCheck(true), [[`Streamable HTTP server 1: ${reason}`]]);
      assert.match(find(answers, 'validationFailed').errors.form ?? '', /^Nothing was saved/);
      assert.deepEqual(settingsCalls(await recorded()), ['GET /api/settings'], 'nothing written');
      assert.equal(mcp.requests[0]?.authorization, `Bearer ${key}`, 'the key, as OpenHands sends it');
      assert.ok(!JSON.stringify(answers).includes(key));

      // Save Anyway
      const saved = find(await form.sendFromWebview({ type: 'save', draft }), 'state');
      assert.deepEqual(saved.outcome?.mcp, { status: 'synced', via: 'settings' });
      assert.equal((await serverState()).settings !== null, true);
    } finally {
      await mcp.close();
    }
  });
});
