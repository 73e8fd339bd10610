import assert from 'node:assert/strict';
import type { TestServer } from '../../server';
import { getJson, postJson, startFastServer } from './helpers';

describe('test server: auth', () => {
  describe('OSS session key', () => {
    let server: TestServer;
    before(async () => {
      server = await startFastServer({ sessionApiKey: 'secret' });
    });
    after(() => server.close());

    it('guards every /api/* route (V1 too, as openhands-ai 1.11.0), after JSON decoding and before validation', async () => {
      assert.equal((await getJson(`${server.url}/api/v1/sandboxes/search`)).status, 401);
      const keyed = { headers: { 'X-Session-API-Key': 'secret' } };
      assert.equal((await getJson(`${server.url}/api/v1/sandboxes/search`, keyed)).status, 200);
      assert.equal((await getJson(`${server.url}/alive`)).status, 200);
      assert.equal((await getJson(`${server.url}/api/settings`)).status, 401);
      assert.equal(
        (await getJson(`${server.url}/api/settings`, { headers: { 'X-Session-API-Key': 'secret' } })).status,
        200,
      );

      const malformed = await getJson<{ detail: { type: string }[] }>(`${server.url}/api/add-git-providers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"provider_tokens":',
      });
      assert.equal(malformed.status, 422);
      assert.equal(malformed.body.detail[0]?.type, 'json_invalid');
      const invalidButUnauthorized = await postJson(`${server.url}/api/add-git-providers`, {
        provider_tokens: { foo: {} },
      });
      assert.equal(invalidButUnauthorized.status, 401);
    });
  });

  describe('hosted (SaaS-like) API key', () => {
    let server: TestServer;
    before(async () => {
      server = await startFastServer({ hostedAuth: { header: 'authorization-bearer', apiKey: 'sk-hosted' } });
    });
    after(() => server.close());

    it('requires the key on every API route, V1 included', async () => {
      const denied = await getJson(`${server.url}/api/v1/sandboxes/search`);
      assert.equal(denied.status, 401);
      assert.deepEqual(denied.body, { error: 'NoCredentialsError' });
      const bearer = await getJson(`${server.url}/api/v1/sandboxes/search`, {
        headers: { Authorization: 'Bearer sk-hosted' },
      });
      assert.equal(bearer.status, 200);
      const fallback = await getJson(`${server.url}/api/settings`, {
        headers: { 'X-Session-API-Key': 'sk-hosted' },
      });
      assert.equal(fallback.status, 200);
    });
  });
});
