import assert from 'node:assert/strict';
import { REDACTED, redactJson, redactUrl, type RequestLogEntry } from '../../../../src/api';
import { maskSecretFields, secretsInJsonText } from '../../../../src/api/redact';
import { useTestServer } from '../harness';

const SECRETS = ['api-key-SECRET-1', 'ghp_SECRET2', 'sse-SECRET-3', 'shttp-SECRET-4', 'env-SECRET-5'];

describe('request log', () => {
  const t = useTestServer({ seed: { sandboxes: 3, conversations: 3 }, sessionApiKey: SECRETS[0] });
  // SESSION_API_KEY guards every /api/* route (openhands-ai 1.11.0)
  beforeEach(() => {
    t.client = t.newClient({ apiKey: SECRETS[0] });
  });

  it('logs method, path, status, time and attempt for each request', async () => {
    await t.client.searchSandboxes({ limit: 2 });
    const [entry] = t.logs;
    assert.equal(entry?.method, 'GET');
    assert.equal(entry?.path, '/api/v1/sandboxes/search?limit=2');
    assert.equal(entry?.status, 200);
    assert.equal(entry?.attempt, 1);
    assert.ok((entry?.durationMs ?? -1) >= 0);
  });

  it('never contains a secret, even with bodies logged', async () => {
    const logs: RequestLogEntry[] = [];
    const client = t.newClient({ apiKey: SECRETS[0], logBodies: true, onLog: (entry) => logs.push(entry) });
    await client.storeProviderTokens({
      provider_tokens: { github: { token: SECRETS[1] } },
      mcp_config: {
        sse_servers: [{ url: 'https://mcp.example.com/sse', api_key: SECRETS[2] }],
        shttp_servers: [{ url: 'https://mcp.example.com/mcp', api_key: SECRETS[3] }],
        stdio_servers: [{ name: 'x', command: 'npx', args: [], env: { GITHUB_TOKEN: SECRETS[4] ?? '' } }],
      },
    });
    const running = (await client.searchSandboxes()).items.find((s) => s.session_api_key);
    assert.ok(running, 'a running sandbox (its key and VS Code URL are in the reply)');
    await client.getSettings();
    const text = JSON.stringify(logs);
    for (const secret of [...SECRETS, running.session_api_key ?? ''])
      assert.ok(!text.includes(secret), `leaked ${secret}`);
    assert.ok(text.includes(REDACTED));
    assert.ok(text.includes('GITHUB_TOKEN'), 'env names stay readable');
  });

  it('errors do not echo the API key', async () => {
    t.server.faults.add({ kind: 'status', status: 500, body: { detail: `bad key ${SECRETS[0]}` } });
    const client = t.newClient({ apiKey: SECRETS[0] });
    await assert.rejects(client.getSettings(), (error: Error) => !error.message.includes(SECRETS[0] ?? ''));
  });
});

describe('redaction helpers', () => {
  it('says an image in a logged body by its length, never its base64', () => {
    const base64 = 'iVBORw0KGgo'.padEnd(40_000, 'A');
    const logged = JSON.stringify(
      redactJson({
        role: 'user',
        content: [{ type: 'image', image_urls: [`data:image/png;base64,${base64}`] }],
        observation: { screenshot_data: base64, text: 'data:image/png;base64,short' },
      }),
    );
    assert.ok(!logged.includes(base64.slice(0, 300)));
    assert.match(logged, /\[an image: 40022 characters not logged\]/);
    assert.match(logged, /"screenshot_data":"\[an image: 40000 characters not logged\]"/);
    assert.match(logged, /data:image\/png;base64,short/, 'a short one is no burden');
  });

  it('masks tkn= in VS Code URLs and secret-named keys', () => {
    assert.equal(redactUrl('http://h/?tkn=abc&folder=/w'), `http://h/?tkn=${REDACTED}&folder=/w`);
    assert.equal(
      redactUrl('see https://me:p4ss-w0rd@mcp.example.com:8443/sse?x=1 and https://host:8080/a@b'),
      `see https://me:${REDACTED}@mcp.example.com:8443/sse?x=1 and https://host:8080/a@b`,
      'a user-info password, not a port followed by a path',
    );
    assert.deepEqual(
      redactJson({ api_key: 'k', url: 'u', nested: [{ token: 't', host: 'h' }], env: { A: 'v' } }),
      {
        api_key: REDACTED,
        url: 'u',
        nested: [{ token: REDACTED, host: 'h' }],
        env: { A: REDACTED },
      },
    );
  });

  it("masks each value of a stdio server's env given as one string, its names kept", () => {
    assert.deepEqual(redactJson({ stdio_servers: [{ name: 'x', env: 'GITHUB_TOKEN=ghp_1,OTHER=v2' }] }), {
      stdio_servers: [{ name: 'x', env: `GITHUB_TOKEN=${REDACTED},OTHER=${REDACTED}` }],
    });
  });

  it('masks secret fields by name in JSON text that is cut short, quoted, or nested too deep to parse', () => {
    // values too short to be masked wherever they occur: only their field's name says they are secrets
    const server = '{"name":"x","env":"A=a1,B=b2","api_key":"k3"}';
    assert.equal(
      maskSecretFields(`{"servers":[${server}],"deep":${'['.repeat(400)}`),
      `{"servers":[{"name":"x","env":"A=${REDACTED},B=${REDACTED}","api_key":"${REDACTED}"}],"deep":${'['.repeat(400)}`,
    );
    assert.equal(
      maskSecretFields(`upstream said: ${JSON.stringify({ detail: server })} and {"token":"t4`),
      `upstream said: {"detail":"{\\"name\\":\\"x\\",\\"env\\":\\"A=${REDACTED},B=${REDACTED}\\",\\"api_key\\":\\"${REDACTED}\\"}"} and {"token":"${REDACTED}"`,
    );
    assert.equal(maskSecretFields('no JSON here: token a1'), 'no JSON here: token a1');
  });

  it('finds the secrets in JSON text however their field is spelled, and skips text that can hold none', () => {
    assert.deepEqual(secretsInJsonText('{"X-Session-API-Key":"sess-abcd"}'), ['sess-abcd']);
    assert.deepEqual(secretsInJsonText('{"\\u0074oken":"tok-abcd"}'), ['tok-abcd']);
    assert.deepEqual(secretsInJsonText('{"url":"https://mcp.example.com/?x=1&sig=sig-abcd"}'), ['sig-abcd']);
    assert.deepEqual(secretsInJsonText('{"args":["--api-key=arg-abcd"]}'), ['arg-abcd']);
    assert.deepEqual(secretsInJsonText(`{"items":${'['.repeat(100_000)}`), []);
  });

  it('leaves empty and null secret fields visible (they carry no secret, and say "unset")', () => {
    assert.deepEqual(redactJson({ token: '', api_key: null }), { token: '', api_key: null });
  });
});
