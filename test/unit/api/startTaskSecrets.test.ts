// A start task that ends in ERROR arrives in a successful reply, and its `detail` is the server's free
// text: it can echo the API key or a token the start request carried. The StartTaskFailedError built from
// it must be masked like every other call failure, and must not carry the request it echoes.
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import {
  OpenHandsClient,
  StartTaskFailedError,
  type AppConversationStartRequest,
  type RequestLogEntry,
} from '../../../src/api';
import { useHostileServer } from './http/hostile/hostileServer';
import type { ReceivedRequest } from './http/hostile/hostileServer';
import { assertNoCopy, renderings, respondJson } from './secretReplies';

const API_KEY = 'key-start-task-7c1d2e3f4a5b';
const PROVIDER_TOKEN = 'ghp_startTaskToken0123456789abcdef';
const INITIAL_MESSAGE = 'Fix the flaky login test in the checkout flow';
const TASK_ID = 'fedcba9876543210fedcba9876543210';

/** A start request that carries a provider token, as a hosted server's start route takes one. */
const START_REQUEST = {
  initial_message: { role: 'user', content: [{ type: 'text', text: INITIAL_MESSAGE }] },
  selected_repository: 'acme/webapp',
  provider_tokens: { github: { token: PROVIDER_TOKEN, host: 'github.com' } },
} as AppConversationStartRequest;

function task(status: string, detail: string | null, request: unknown) {
  return { id: TASK_ID, status, detail, sandbox_id: null, agent_server_url: null, request };
}

describe('StartTaskFailedError: secrets in a failed start', () => {
  const hostile = useHostileServer();

  for (const echoesRequest of [true, false]) {
    it(`an ERROR detail that echoes the API key and a token of the start request shows neither (request ${
      echoesRequest ? 'echoed' : 'not echoed'
    } in the task)`, async () => {
      let sent: unknown = null;
      const baseUrl = hostile.callUrl((socket: Socket, request: ReceivedRequest) => {
        if (request.method === 'POST') {
          sent = JSON.parse(request.body);
          respondJson(socket, task('WORKING', null, echoesRequest ? sent : null));
        } else {
          const detail =
            `Sandbox refused X-Session-API-Key ${API_KEY} and GitHub token ${PROVIDER_TOKEN} ` +
            `(https://x-access-token:${PROVIDER_TOKEN}@github.com/acme/webapp.git)`;
          respondJson(socket, [task('ERROR', detail, echoesRequest ? sent : null)]);
        }
      });
      const logs: RequestLogEntry[] = [];
      const client = new OpenHandsClient({
        baseUrl,
        apiKey: API_KEY,
        timeoutMs: 5000,
        logBodies: true,
        onLog: (entry) => logs.push(entry),
      });
      const started = await client.createConversation(START_REQUEST);
      const error = await client.waitForStartTask(started.id, { intervalMs: 5 }).then(
        () => assert.fail('an ERROR task must throw'),
        (thrown: unknown) => thrown,
      );
      assert.ok(error instanceof StartTaskFailedError, `expected StartTaskFailedError, got ${String(error)}`);
      assert.equal(error.task.status, 'ERROR');
      assert.match(error.message, /Sandbox refused X-Session-API-Key \[redacted\]/);
      assert.equal(error.task.request, null, 'the task on the error does not carry the start request');
      assertNoCopy(renderings(error, logs), [API_KEY, PROVIDER_TOKEN]);
      assertNoCopy(renderings(error, []), [INITIAL_MESSAGE]);
    });
  }
});
