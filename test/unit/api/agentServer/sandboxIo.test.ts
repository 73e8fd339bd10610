// The client's upload and command calls against the agent-server double over real HTTP, as agent
// server 1.34.0 answers them (file_router.py `upload_file_query`, bash_router.py `execute_bash_command`):
// the exact bytes land at the absolute path, a relative one is refused, the command runs with sh in
// its cwd and says its exit code and output; no uploaded byte reaches the request log.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  AgentServerClient,
  agentEndpointOf,
  ApiError,
  OpenHandsClient,
  type RequestLogEntry,
} from '../../../../src/api';
import type { TestServer } from '../../../server';
import { startFastServer } from '../../testServer/helpers';

const CANARY = 'UPLOADED_CANARY_4d1c9e';
/** Bytes a text decoder would break: every byte value, a NUL run, CRLFs and something like a boundary. */
const AWKWARD = Buffer.concat([
  Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
  Buffer.from(`\r\n--openhands-boundary\r\n${CANARY}\r\n\r\n`),
  Buffer.alloc(64),
]);

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ApiError, `an ApiError, not ${String(error)}`);
    return error;
  }
  assert.fail('the call succeeded');
}

describe('AgentServerClient upload and commands against the agent-server double', function () {
  this.timeout(20_000);
  let server: TestServer;
  let logs: RequestLogEntry[];
  let client: AgentServerClient;
  let sandboxDir: string;

  before(async () => {
    server = await startFastServer({ seed: { sandboxes: 2, conversations: 4, seed: 11 } });
  });
  after(() => server.close());
  beforeEach(async () => {
    server.reset();
    logs = [];
    const sandbox = server.state.sandboxes.find((candidate) => candidate.status === 'RUNNING');
    const template = server.state.conversations[0];
    assert.ok(sandbox && template, 'the seed has a running sandbox');
    const hex = randomUUID().replace(/-/g, '');
    server.state.conversations.push({
      ...template,
      id: hex,
      sandbox_id: sandbox.id,
      execution_status: 'idle',
    });
    const app = new OpenHandsClient({ baseUrl: server.url, timeoutMs: 5000 });
    const [conversation] = await app.getConversations([hex]);
    const endpoint = conversation ? agentEndpointOf(conversation) : undefined;
    assert.ok(endpoint, 'a conversation in a running sandbox has an agent endpoint');
    client = new AgentServerClient({
      endpoint,
      timeoutMs: 5000,
      logBodies: true,
      onLog: (entry) => logs.push(entry),
    });
    sandboxDir = server.agent.sandboxDir(sandbox.id);
  });

  it('writes the exact bytes at an absolute path, its folders made, and logs none of them', async () => {
    const target = path.join(sandboxDir, 'parts here', 'deep', 'part.bin');
    assert.deepEqual(await client.uploadFile(target, AWKWARD), { success: true });
    assert.deepEqual(readFileSync(target), AWKWARD);
    // again: the file is replaced, not appended to
    await client.uploadFile(target, Buffer.from('short'));
    assert.equal(readFileSync(target, 'utf8'), 'short');
    const logged = JSON.stringify(logs);
    assert.ok(
      logs.some((entry) => entry.path.startsWith('/api/file/upload')),
      'the upload is logged',
    );
    assert.ok(!logged.includes(CANARY), 'no uploaded byte in the log');
    const recorded = server.requests.find((request) => request.path.endsWith('/api/file/upload'));
    assert.ok(String(recorded?.headers['content-type']).startsWith('multipart/form-data; boundary='));
  });

  it('is refused a relative path with the server’s words', async () => {
    const error = await rejection(client.uploadFile('relative/part.bin', AWKWARD));
    assert.equal(error.status, 400);
    assert.match(error.message, /Path must be absolute/);
  });

  it('runs a command with sh in its cwd and says its exit code, output and errors', async () => {
    const made = await client.executeBashCommand('mkdir -p sub && cd sub && pwd -P', {});
    assert.equal(made.exit_code, 0);
    assert.equal(made.stdout?.trim(), path.join(sandboxDir, 'sub'));
    assert.equal(made.stderr, null);
    const failed = await client.executeBashCommand('echo out; echo err >&2; exit 3', { cwd: 'sub' });
    assert.equal(failed.exit_code, 3);
    assert.equal(failed.stdout, 'out\n');
    assert.equal(failed.stderr, 'err\n');
    const sent = server.requests.filter((request) => request.path.endsWith('/execute_bash_command'));
    assert.deepEqual(sent.at(-1)?.body, {
      command: 'echo out; echo err >&2; exit 3',
      cwd: 'sub',
      timeout: 300,
    });
  });

  it('refuses a time the server could not keep before sending anything', async () => {
    for (const timeoutSeconds of [0, 1.5, 3601]) {
      await assert.rejects(
        () => client.executeBashCommand('true', { timeoutSeconds }),
        (error) => error instanceof ApiError && /1 to 3600 whole seconds/.test(error.message),
      );
    }
    assert.equal(
      server.requests.filter((request) => request.path.endsWith('/execute_bash_command')).length,
      0,
    );
  });
});
