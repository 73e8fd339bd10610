// Credentials inside MCP URLs and stdio args (issue 9, item 6), the cases a review found: args that move,
// masks that match nothing held; and what earlier versions stored locally (credentials in plain view in
// globalState, secrets by random ids), moved on first load.
import assert from 'node:assert/strict';
import type { ServerSecrets } from '../../../../../src/core/secretsManager';
import { entryId } from '../../../../../src/webviews/mcpForm/host/entryIds';
import { FormSave } from '../../../../../src/webviews/mcpForm/host/formSave';
import { VscodeFormStorage } from '../../../../../src/webviews/mcpForm/host/formStorage';
import { fieldPath } from '../../../../../src/webviews/mcpForm/shared/fieldPath';
import { useTestServer } from '../../../api/harness';
import {
  assertFreeOf,
  calls,
  draft,
  MemoryFormStorage,
  MemoryLog,
  freshFormSave,
  none,
  saved,
  STRINGS,
  untouched,
} from './fixtures';

describe('mcpForm: credentials inside URLs and args', () => {
  const t = useTestServer();
  let store: MemoryFormStorage, log: MemoryLog, form: FormSave;
  beforeEach(() => ({ store, log, form } = freshFormSave()));

  const stdioDraft = (id: string | null, args: string[]) =>
    draft({
      serverUrl: t.server.url,
      mcp: { stdio: [{ id, name: 'tools', command: 'npx', args, env: [] }] },
    });

  it('are masked in the model, sent whole, and kept whole by a later save of the masked form', async () => {
    const whole = {
      url: 'https://mcp.example.com/sse?team=core&api_key=url-secret-7',
      tokenArg: '--token=arg-secret-8',
      urlArg: 'https://tools.example.com/mcp?token=arg-secret-9',
    };
    const credentials = ['url-secret-7', 'arg-secret-8', 'arg-secret-9'];
    const first = saved(
      await form.save(
        t.server.url,
        draft({
          serverUrl: t.server.url,
          mcp: {
            sse: [{ id: null, url: whole.url, apiKey: none }],
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

    // The model shows them masked.
    const model = first.model;
    assert.ok(model);
    assert.equal(model.mcp.sse[0]?.url, 'https://mcp.example.com/sse?team=core&api_key=[redacted]');
    assert.deepEqual(model.mcp.stdio[0]?.args, [
      '-y',
      '--token=[redacted]',
      'https://tools.example.com/mcp?token=[redacted]',
    ]);
    assertFreeOf(first, credentials, 'the save result');

    // Saving the masked values untouched, with another change, keeps the whole ones.
    const edited = untouched(model);
    edited.mcp.stdio[0]!.args.push('--verbose');
    const again = saved(await form.save(t.server.url, edited, t.client));
    assert.deepEqual(again.outcome.mcp, { status: 'synced', via: 'settings' });
    const resent = t.server.state.settings?.mcp_config;
    assert.equal(resent?.sse_servers[0]?.url, whole.url);
    assert.deepEqual(resent?.stdio_servers[0]?.args, ['-y', whole.tokenArg, whole.urlArg, '--verbose']);

    // Loaded back from the server, they are masked again; no credential reached the log.
    const loaded = await form.load(t.server.url, t.client);
    assert.equal(loaded.model?.mcp.stdio[0]?.args[1], '--token=[redacted]');
    assertFreeOf(loaded, credentials, 'the loaded model');
    assertFreeOf(again, credentials, 'the second save result');
    assertFreeOf(log.lines, credentials, 'the log');
  });

  it('a masked arg keeps its credential when an earlier arg is removed', async () => {
    saved(
      await form.save(t.server.url, stdioDraft(null, ['-y', 'tools', '--token=moving-secret-1']), t.client),
    );
    const loaded = await form.load(t.server.url, t.client);
    const entry = loaded.model?.mcp.stdio[0];
    assert.deepEqual(entry?.args, ['-y', 'tools', '--token=[redacted]']);
    const result = saved(
      await form.save(t.server.url, stdioDraft(entry?.id ?? null, ['tools', '--token=[redacted]']), t.client),
    );
    assert.deepEqual(result.outcome.mcp, { status: 'synced', via: 'settings' });
    assert.deepEqual(t.server.state.settings?.mcp_config?.stdio_servers[0]?.args, [
      'tools',
      '--token=moving-secret-1',
    ]);
  });

  it("a password in a URL's user info is a credential too: masked in the model and the log, kept whole by a save", async () => {
    const url = 'https://bot:pw-secret-5555@mcp.example.com/sse';
    const first = saved(
      await form.save(
        t.server.url,
        draft({ serverUrl: t.server.url, mcp: { sse: [{ id: null, url, apiKey: none }] } }),
        t.client,
      ),
    );
    assert.equal(first.model?.mcp.sse[0]?.url, 'https://bot:[redacted]@mcp.example.com/sse');
    const edited = untouched(first.model!);
    edited.mcp.shttp.push({ id: null, url: 'https://b.example.com/mcp', apiKey: none, timeout: '' });
    saved(await form.save(t.server.url, edited, t.client));
    assert.equal(t.server.state.settings?.mcp_config?.sse_servers[0]?.url, url);
    assertFreeOf(log.lines, ['pw-secret-5555'], 'the log');
    assertFreeOf(t.logs, ['pw-secret-5555'], 'the request log');
  });

  it('two args that look the same when masked each keep their own credential', async () => {
    const args = [
      'mcp-remote',
      'https://x.example.com/a?token=first-1111',
      'https://x.example.com/a?token=second-2222',
    ];
    saved(await form.save(t.server.url, stdioDraft(null, args), t.client));
    const loaded = await form.load(t.server.url, t.client);
    const edited = untouched(loaded.model!);
    edited.mcp.sse.push({ id: null, url: 'https://b.example.com/sse', apiKey: none });
    saved(await form.save(t.server.url, edited, t.client));
    assert.deepEqual(t.server.state.settings?.mcp_config?.stdio_servers[0]?.args, args);
  });

  it('a mask that stands for nothing held is refused at its field, and nothing is sent', async () => {
    t.server.requests.length = 0;
    const restored = draft({
      serverUrl: t.server.url,
      // a dirty draft restored after the panel was hidden: the typed credential was masked on the way
      mcp: { sse: [{ id: null, url: 'https://mcp.example.com/sse?api_key=[redacted]', apiKey: none }] },
    });
    const result = await form.save(t.server.url, restored, t.client);
    assert.deepEqual(result, {
      kind: 'invalid',
      errors: { [fieldPath.url('sse', 0)]: STRINGS.errSecretMissing },
    });
    // only the read that decides what to send
    assert.deepEqual(calls(t.server.requests), ['GET /api/settings']);
    assert.equal(store.saves, 0);
    assert.deepEqual(t.server.state.settings?.mcp_config?.sse_servers ?? [], []);
  });

  it('a mask whose entry the server no longer holds is refused, not sent as the literal mask', async () => {
    saved(await form.save(t.server.url, stdioDraft(null, ['--token=gone-secret-2']), t.client));
    const loaded = await form.load(t.server.url, t.client);
    assert.ok(loaded.model);
    // another client removes the server meanwhile
    await t
      .newClient()
      .storeSettings({ mcp_config: { sse_servers: [], shttp_servers: [], stdio_servers: [] } });
    const edited = untouched(loaded.model);
    edited.mcp.stdio[0]!.command = 'uvx';
    t.server.requests.length = 0;
    const result = await form.save(t.server.url, edited, t.client);
    assert.deepEqual(result, {
      kind: 'invalid',
      errors: { [fieldPath.arg(0, 0)]: STRINGS.errSecretMissing },
    });
    assert.deepEqual(calls(t.server.requests), ['GET /api/settings']);
  });
});

/** Secret Storage and globalState in memory, each per server URL, as VscodeFormStorage uses them. */
function memoryVault(): {
  secrets: Map<string, string>;
  mementos: Map<string, unknown>;
  storage: VscodeFormStorage;
} {
  const secrets = new Map<string, string>();
  const mementos = new Map<string, unknown>();
  const vault: ServerSecrets = {
    get: async (url) => secrets.get(url),
    set: async (url, value) => void secrets.set(url, value),
    clear: async (url) => void secrets.delete(url),
  };
  const storage = new VscodeFormStorage(vault, {
    earlierMcpForm: (url) => mementos.get(url),
    clearEarlierMcpForm: async (url) => void mementos.delete(url),
  });
  return { secrets, mementos, storage };
}

const SSE_WHOLE = 'https://mcp.example.com/sse?api_key=old-plain-2';
const SHTTP_WHOLE = 'https://docs.example.com/mcp?token=old-cred-4';

/**
 * What builds before 0.1.0 kept for a server: a copy of its config in globalState with random ids
 * (the SSE URL still whole, as the earliest of them stored it; the HTTP one masked, its whole value
 * in `credentialFields`), and the secrets by those ids.
 */
function earlierLayout(): { config: unknown; secrets: string } {
  return {
    config: {
      version: 1,
      providers: { github: { host: null } },
      mcp: {
        sse: [{ id: 'r4nd0m-s1', url: SSE_WHOLE }],
        shttp: [{ id: 'r4nd0m-h1', url: 'https://docs.example.com/mcp?token=[redacted]', timeout: null }],
        stdio: [
          {
            id: 'r4nd0m-p1',
            name: 'tools',
            command: 'npx',
            args: ['--token=old-plain-3'],
            env: [
              { id: 'r4nd0m-e1', name: 'TOKEN' },
              { id: 'r4nd0m-e2', name: 'EMPTY' },
            ],
          },
        ],
      },
      pending: { providers: {}, mcp: false },
      lastOutcome: null,
    },
    secrets: JSON.stringify({
      providers: { github: 'ghp_old' },
      apiKeys: { 'r4nd0m-s1': 'sse-old-key', 'r4nd0m-h1': 'http-old-key' },
      env: { 'r4nd0m-p1': { 'r4nd0m-e1': 'env-old' } },
      credentialFields: { 'r4nd0m-h1:url': SHTTP_WHOLE, 'r4nd0m-p1:arg:0': '--token=old-plain-3' },
    }),
  };
}

const MOVED = {
  providers: { github: 'ghp_old' },
  apiKeys: {
    [entryId.remote('sse', SSE_WHOLE)]: 'sse-old-key',
    [entryId.remote('shttp', SHTTP_WHOLE)]: 'http-old-key',
  },
  env: { [entryId.stdio('tools', 'npx')]: { TOKEN: 'env-old', EMPTY: '' } },
};

describe('mcpForm VscodeFormStorage: what an earlier version stored', () => {
  const URL = 'http://openhands.example.com:3000';

  it('moves the secrets to the ids derived from the server entries, and clears globalState', async () => {
    const { secrets, mementos, storage } = memoryVault();
    const earlier = earlierLayout();
    mementos.set(URL, earlier.config);
    secrets.set(URL, earlier.secrets);
    assert.deepEqual(await storage.load(URL), MOVED);
    assert.equal(mementos.has(URL), false, 'globalState no longer holds the plain credentials');
    assert.deepEqual(JSON.parse(secrets.get(URL) ?? 'null'), { ...MOVED, layout: 2 });
    // moved once: the next load reads the new layout as it is
    assert.deepEqual(await storage.load(URL), MOVED);
  });

  it('a second move (the earlier globalState outlived the first) leaves what this build stored', async () => {
    const { secrets, mementos, storage } = memoryVault();
    const earlier = earlierLayout();
    mementos.set(URL, earlier.config);
    secrets.set(URL, earlier.secrets);
    await storage.load(URL);
    // another window still had the earlier copy, or clearing it failed
    mementos.set(URL, earlier.config);
    assert.deepEqual(await storage.load(URL), MOVED);
    assert.deepEqual(JSON.parse(secrets.get(URL) ?? 'null'), { ...MOVED, layout: 2 });
    assert.equal(mementos.has(URL), false);
  });

  it('globalState that does not parse is dropped, and Secret Storage kept as it is', async () => {
    const { secrets, mementos, storage } = memoryVault();
    mementos.set(URL, { version: 99, something: 'else' });
    secrets.set(URL, JSON.stringify(MOVED));
    assert.deepEqual(await storage.load(URL), MOVED);
    assert.equal(mementos.has(URL), false);
    assert.deepEqual(JSON.parse(secrets.get(URL) ?? 'null'), { ...MOVED, layout: 2 });
  });

  it('saving nothing clears the server slot in Secret Storage', async () => {
    const { secrets, storage } = memoryVault();
    await storage.save(URL, MOVED);
    assert.ok(secrets.has(URL));
    await storage.save(URL, { providers: {}, apiKeys: {}, env: {} });
    assert.equal(secrets.has(URL), false);
  });

  describe('and then a save to openhands-ai 1.11, which reads no secret back', () => {
    const t = useTestServer({ legacySettingsRoutes: false });

    it('re-sends the moved keys and env with the servers kept', async () => {
      await t.client.storeSettings({
        agent_settings_diff: {
          mcp_config: {
            'mcp-example-com': { url: SSE_WHOLE, transport: 'sse', api_key: 'sse-old-key' },
            'docs-example-com': { url: SHTTP_WHOLE, transport: 'http', api_key: 'http-old-key' },
            tools: { command: 'npx', args: ['--token=old-plain-3'], env: { TOKEN: 'env-old', EMPTY: '' } },
          },
        },
      });
      const { secrets, mementos, storage } = memoryVault();
      const earlier = earlierLayout();
      mementos.set(t.server.url, earlier.config);
      secrets.set(t.server.url, earlier.secrets);
      const form = new FormSave(storage, new MemoryLog(), STRINGS);
      const loaded = await form.load(t.server.url, t.client);
      assert.ok(loaded.model);
      assert.deepEqual(
        loaded.model.mcp.stdio[0]?.env.map((row) => [row.name, row.value]),
        [
          ['TOKEN', 'set'],
          ['EMPTY', 'unset'],
        ],
      );
      const edited = untouched(loaded.model);
      edited.mcp.stdio.push({ id: null, name: 'git', command: 'uvx', args: ['mcp-server-git'], env: [] });
      const result = saved(await form.save(t.server.url, edited, t.client));
      assert.deepEqual(result.outcome.mcp, { status: 'synced', via: 'settings' });
      const servers = t.server.state.settings?.v1_mcp_servers;
      assert.deepEqual(servers?.['mcp-example-com']?.auth, { strategy: 'api_key', value: 'sse-old-key' });
      assert.deepEqual(servers?.['docs-example-com']?.auth, { strategy: 'api_key', value: 'http-old-key' });
      assert.deepEqual(servers?.tools?.env, { TOKEN: 'env-old', EMPTY: '' });
      assert.deepEqual(servers?.tools?.args, ['--token=old-plain-3']);
      assert.ok(servers?.git);
      assertFreeOf(
        result,
        ['sse-old-key', 'http-old-key', 'env-old', 'old-plain-3', 'old-cred-4'],
        'the save result',
      );
    });
  });
});
