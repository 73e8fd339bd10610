// Credentials inside MCP URLs and stdio args (issue 9, item 6), the cases a review found: args that move,
// masks that match nothing held, and state stored by earlier versions with the credentials in plain view.
import assert from 'node:assert/strict';
import { SyncService } from '../../../src/webviews/mcpForm/host/syncService';
import { VscodeFormStorage } from '../../../src/webviews/mcpForm/host/formStorage';
import { emptyLocalConfig } from '../../../src/webviews/mcpForm/host/localState';
import { useTestServer } from '../api/harness';
import { draft, idSequence, MemoryFormStorage, MemoryLog, saved, STRINGS } from './fixtures';

describe('mcpForm: credentials inside URLs and args', () => {
  const t = useTestServer();
  let store: MemoryFormStorage;
  let service: SyncService;
  beforeEach(() => {
    store = new MemoryFormStorage();
    service = new SyncService(store, new MemoryLog(), () => STRINGS, idSequence());
  });

  const stdioDraft = (id: string | null, args: string[]) =>
    draft({
      serverUrl: t.server.url,
      mcp: { stdio: [{ id, name: 'tools', command: 'npx', args, env: [] }] },
    });

  it('a masked arg keeps its credential when an earlier arg is removed', async () => {
    saved(
      await service.save(
        t.server.url,
        stdioDraft(null, ['-y', 'tools', '--token=moving-secret-1']),
        t.client,
      ),
    );
    const stored = await store.load(t.server.url);
    const entry = stored.config.mcp.stdio[0];
    assert.deepEqual(entry?.args, ['-y', 'tools', '--token=[redacted]']);
    saved(
      await service.save(
        t.server.url,
        stdioDraft(entry?.id ?? null, ['tools', '--token=[redacted]']),
        t.client,
      ),
    );
    assert.deepEqual(t.server.state.settings?.mcp_config?.stdio_servers[0]?.args, [
      'tools',
      '--token=moving-secret-1',
    ]);
  });

  it('a mask that stands for nothing held is refused at its field, and nothing is sent', async () => {
    t.server.requests.length = 0;
    const restored = draft({
      serverUrl: t.server.url,
      // a dirty draft restored after the panel was hidden: the typed credential was masked on the way
      mcp: {
        sse: [
          { id: null, url: 'https://mcp.example.com/sse?api_key=[redacted]', apiKey: { state: 'unset' } },
        ],
      },
    });
    const result = await service.save(t.server.url, restored, t.client);
    assert.equal(result.kind, 'invalid');
    assert.equal(result.kind === 'invalid' && result.errors['mcp.sse.0.url'], STRINGS.errSecretMissing);
    assert.deepEqual(
      t.server.requests.filter((r) => !r.path.startsWith('/__control')),
      [],
    );
  });

  it('state stored by an earlier version, with credentials in plain URLs and args, is moved to Secret Storage on load', async () => {
    const config = emptyLocalConfig();
    config.mcp.sse = [{ id: 's1', url: 'https://mcp.example.com/sse?api_key=old-plain-2' }];
    config.mcp.stdio = [{ id: 'p1', name: 'tools', command: 'npx', args: ['--token=old-plain-3'], env: [] }];
    const mementos = new Map<string, unknown>([[t.server.url, config]]);
    const secrets = new Map<string, string>();
    const storage = new VscodeFormStorage(
      {
        get: async (url) => secrets.get(url),
        set: async (url, value) => void secrets.set(url, value),
        clear: async (url) => void secrets.delete(url),
      },
      {
        mcpForm: (url) => mementos.get(url),
        setMcpForm: async (url, value) => void mementos.set(url, value),
      },
    );
    const loaded = await storage.load(t.server.url);
    assert.equal(loaded.config.mcp.sse[0]?.url, 'https://mcp.example.com/sse?api_key=[redacted]');
    assert.deepEqual(loaded.config.mcp.stdio[0]?.args, ['--token=[redacted]']);
    const plain = JSON.stringify(mementos.get(t.server.url));
    assert.ok(
      !plain.includes('old-plain-2') && !plain.includes('old-plain-3'),
      'globalState no longer holds them',
    );
    assert.match(secrets.get(t.server.url) ?? '', /old-plain-2.*old-plain-3/);
  });
});
