// globalState as the extension uses it: server URLs and conversation ids only, whatever was stored
// there before read defensively, and no secret among it after the flows that touch both stores.
import assert from 'node:assert/strict';
import { MementoManager } from '../../../src/core/mementoManager';
import { PlainHttpConsent } from '../../../src/core/plainHttp';
import { SecretsManager } from '../../../src/core/secretsManager';
import { MemoryMemento, MemorySecretStorage } from '../../shared/vscodeStandIn/standIn';

const hex = (n: number) => n.toString(16).padStart(32, '0');

describe('MementoManager: what globalState holds, none of it secret', () => {
  let memento: MemoryMemento;
  let mementos: MementoManager;

  beforeEach(() => {
    memento = new MemoryMemento();
    mementos = new MementoManager(memento);
  });

  it('keeps the newest 200 watched conversations, oldest first', async () => {
    const ids = Array.from({ length: 250 }, (_, i) => hex(i + 1));
    await mementos.setWatchedConversations(ids);
    const kept = mementos.watchedConversations();
    assert.equal(kept.length, 200);
    assert.equal(kept[0], hex(51));
    assert.equal(kept.at(-1), hex(250));
  });

  it('reads back only well-formed ids and URLs, whatever an earlier build or a hand edit stored', async () => {
    await memento.update('openhands.watchedConversations', [hex(1), 'not-an-id', 42, 'AB'.repeat(16), null]);
    await memento.update('openhands.plainHttpAllowed', ['http://10.0.0.5:3000', 7, { url: 'x' }]);
    assert.deepEqual(mementos.watchedConversations(), [hex(1)]);
    assert.deepEqual(mementos.plainHttpAllowed(), ['http://10.0.0.5:3000']);
    await memento.update('openhands.watchedConversations', 'garbage');
    await memento.update('openhands.plainHttpAllowed', { a: 1 });
    assert.deepEqual(mementos.watchedConversations(), []);
    assert.deepEqual(mementos.plainHttpAllowed(), []);
  });

  it('reads and then clears the MCP form an earlier build kept, per server', async () => {
    await memento.update('openhands.mcpForm.config:https://a.example.com', { servers: ['x'] });
    assert.deepEqual(mementos.earlierMcpForm('https://A.example.com/'), { servers: ['x'] });
    assert.equal(mementos.earlierMcpForm('https://b.example.com'), undefined);
    await mementos.clearEarlierMcpForm('https://a.example.com');
    assert.deepEqual(memento.keys(), []);
  });

  it('holds no API key after a key is stored, a plain-http server allowed and conversations watched', async () => {
    const storage = new MemorySecretStorage();
    const secrets = new SecretsManager(storage);
    const key = 'sk-oh-very-secret-0123456789';
    await secrets.apiKeys.set('http://10.0.0.5:3000', key);
    await new PlainHttpConsent(mementos).allow('http://10.0.0.5:3000/');
    await mementos.setWatchedConversations([hex(9)]);
    const stored = memento.dump();
    assert.ok(stored.includes('http://10.0.0.5:3000'), stored);
    assert.ok(!stored.includes(key), stored);
    assert.equal(await secrets.apiKeys.get('http://10.0.0.5:3000'), key);
    secrets.dispose();
  });
});
