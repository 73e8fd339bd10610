// Secret Storage as the extension uses it: one slot per server, the same server however its URL is
// written, the API key and the MCP form's secrets apart, and a changed key told (also from another window).
import assert from 'node:assert/strict';
import { SecretsManager } from '../../../src/core/secretsManager';
import { MemorySecretStorage } from '../../shared/vscodeStandIn/standIn';

describe('SecretsManager: everything secret, one slot per server', () => {
  let storage: MemorySecretStorage;
  let secrets: SecretsManager;

  beforeEach(() => {
    storage = new MemorySecretStorage();
    secrets = new SecretsManager(storage);
  });

  afterEach(() => secrets.dispose());

  it('keeps each server’s key apart, and reads `https://Host/` as `https://host`', async () => {
    await secrets.apiKeys.set('https://Work.example.com/', 'key-work');
    await secrets.apiKeys.set('http://localhost:3000', 'key-local');
    assert.equal(await secrets.apiKeys.get('https://work.example.com'), 'key-work');
    assert.equal(await secrets.apiKeys.get('http://LOCALHOST:3000//'), 'key-local');
    assert.equal(await secrets.apiKeys.get('https://other.example.com'), undefined);
    await secrets.apiKeys.clear('https://WORK.example.com');
    assert.equal(await secrets.apiKeys.get('https://work.example.com'), undefined);
    assert.equal(await secrets.apiKeys.get('http://localhost:3000'), 'key-local');
  });

  it('keeps the MCP form’s secrets apart from the API key of the same server', async () => {
    await secrets.apiKeys.set('https://a.example.com', 'the-key');
    await secrets.mcpForm.set('https://a.example.com', '{"token":"t"}');
    assert.equal(await secrets.apiKeys.get('https://a.example.com'), 'the-key');
    assert.equal(await secrets.mcpForm.get('https://a.example.com'), '{"token":"t"}');
    await secrets.mcpForm.clear('https://a.example.com');
    assert.equal(await secrets.apiKeys.get('https://a.example.com'), 'the-key');
  });

  it('keeps the Model page’s LLM key apart from the API key and tells no key change for it', async () => {
    const changed: string[] = [];
    secrets.apiKeys.onDidChange((url) => changed.push(url));
    await secrets.apiKeys.set('https://a.example.com', 'the-key');
    await secrets.llmKeys.set('https://a.example.com', 'sk-llm');
    assert.equal(await secrets.apiKeys.get('https://a.example.com'), 'the-key');
    assert.equal(await secrets.llmKeys.get('https://A.example.com/'), 'sk-llm');
    await secrets.llmKeys.clear('https://a.example.com');
    assert.equal(await secrets.llmKeys.get('https://a.example.com'), undefined);
    assert.equal(await secrets.apiKeys.get('https://a.example.com'), 'the-key');
    assert.deepEqual(changed, ['https://a.example.com']);
  });

  it('keeps the slot names earlier builds stored under', async () => {
    await secrets.apiKeys.set('https://A.example.com/', 'k');
    await secrets.mcpForm.set('https://A.example.com/', 'm');
    await secrets.llmKeys.set('https://A.example.com/', 'l');
    assert.deepEqual((await storage.keys()).sort(), [
      'openhands.apiKey:https://a.example.com',
      'openhands.llmKey:https://a.example.com',
      'openhands.mcpForm.secrets:https://a.example.com',
    ]);
  });

  it('tells which server’s key changed, also when another window changed it, and nothing of the MCP form', async () => {
    const changed: string[] = [];
    secrets.apiKeys.onDidChange((url) => changed.push(url));
    await secrets.apiKeys.set('https://A.example.com', 'k1');
    await secrets.mcpForm.set('https://a.example.com', 'm');
    // another window writes the same storage
    await storage.store('openhands.apiKey:http://localhost:3000', 'k2');
    await secrets.apiKeys.clear('https://a.example.com');
    assert.deepEqual(changed, ['https://a.example.com', 'http://localhost:3000', 'https://a.example.com']);
  });

  it('tells nothing once disposed', async () => {
    const changed: string[] = [];
    secrets.apiKeys.onDidChange((url) => changed.push(url));
    secrets.dispose();
    await storage.store('openhands.apiKey:https://a.example.com', 'k');
    assert.deepEqual(changed, []);
  });
});
