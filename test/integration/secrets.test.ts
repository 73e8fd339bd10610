import * as assert from 'node:assert/strict';
import { eventually } from '../shared/eventually';
import { extensionApi as api } from './extensionApi';

// Servers nobody else uses, so this cannot disturb the sidebar tests' connection.
const SERVER_A = 'http://secrets-a.invalid:1';
const SERVER_B = 'http://secrets-b.invalid:1';

describe('SecretStorage', () => {
  it('round-trips an API key through the extension (context.secrets), one key per server', async () => {
    const { apiKeys } = await api();
    const changed: string[] = [];
    const listener = apiKeys.onDidChange((url) => changed.push(url));
    try {
      await apiKeys.set(SERVER_A, 'key-a');
      assert.equal(await apiKeys.get(SERVER_A), 'key-a');
      assert.equal(
        await apiKeys.get(`${SERVER_A.toUpperCase()}/`),
        'key-a',
        'trailing slash and case are ignored',
      );
      assert.equal(await apiKeys.get(SERVER_B), undefined, "one server's key is never another's");
      await apiKeys.clear(SERVER_A);
      assert.equal(await apiKeys.get(SERVER_A), undefined);
      // SecretStorage reports changes asynchronously.
      await eventually(
        () => [...changed],
        (seen) => seen.includes(SERVER_A),
        { description: `onDidChange to fire for ${SERVER_A}`, timeoutMs: 5000 },
      );
    } finally {
      listener.dispose();
      await apiKeys.clear(SERVER_A);
    }
  });
});
