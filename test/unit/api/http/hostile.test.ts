// The clients against a hostile server: 10,000 seeded calls over loopback, every operation (to the app
// server, and to a sandbox's agent server) against every scenario. Each call must end in the correct value or an ApiError, by its deadline, and nothing it knew
// as a secret may show in the error (however it is printed) or in the request log.
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import {
  AgentServerClient,
  ApiError,
  OpenHandsClient,
  type AuthHeader,
  type RequestLogEntry,
} from '../../../../src/api';
import { Prng } from '../../../server/prng';
import { startHostileServer, type HostileServer } from './hostile/hostileServer';
import { OPERATIONS, type CallSecrets, type Clients, type Operation } from './hostile/operations';
import { DEFAULT_TIMING, SCENARIOS, type Scenario, type Timing } from './hostile/scenarios';

const CALLS = 10_000;
const CONCURRENCY = 64;
const SEED = 20261122;
const RATE_LIMIT_RETRIES = 1;
const MAX_RETRY_AFTER_MS = 50;
/** Event-loop lag under 64 concurrent calls in one process, on a 2-core machine. */
const SLACK_MS = 2000;
/** Past its deadline by this much, a call counts as hung. */
const HANG_MS = 15_000;
const AUTH_HEADERS: AuthHeader[] = ['X-Session-API-Key', 'Authorization', 'X-Access-Token'];
/** Characters of 2, 3 and 4 UTF-8 bytes, which a chunk boundary splits. */
const MULTIBYTE = ['é', 'ü', '日', '本', '語', '€', '🚀', '🦀', '𝄞', 'ß'];
const CONVERSATION_ID = 'fedcba98765432100123456789abcdef';

interface Tally {
  calls: number;
  correct: number;
  /** Byte calls that took a well-framed 2xx body that was not the file (a page, cut JSON), as they should. */
  bytesTaken: number;
  apiErrors: number;
  nonApiErrors: number;
  late: number;
  hung: number;
  leaks: number;
  wrong: number;
  strays: number;
  problems: string[];
}

function randomSecret(rng: Prng, prefix: string): string {
  return `${prefix}${rng.hex(20)}`;
}

function deadlineOf(operation: Operation, scenario: Scenario, timing: Timing): number {
  if (operation.streamed && !scenario.notTheStream) return timing.streamTimeoutMs;
  // listSandboxConversations is bounded as a whole by the request timeout
  if (operation.name === 'listSandboxConversations') return timing.timeoutMs;
  const attempts = operation.server === 'app' && operation.method === 'GET' ? RATE_LIMIT_RETRIES + 1 : 1;
  return attempts * timing.timeoutMs + (attempts - 1) * MAX_RETRY_AFTER_MS;
}

/** Every way the error could be shown, logged or serialised. */
function renderings(error: unknown, logs: RequestLogEntry[]): string[] {
  const ways: (() => string)[] = [
    () => String(error),
    () => JSON.stringify(logs),
    () => inspect(logs, { depth: 8 }),
  ];
  if (error instanceof Error) {
    ways.push(
      () => error.message,
      () => JSON.stringify(error),
      () => inspect(error, { depth: 6 }),
      () => error.stack ?? '',
    );
  }
  if (error instanceof ApiError)
    ways.push(
      () => error.serverMessage ?? '',
      () => JSON.stringify(error.issues),
    );
  return ways.map((render) => {
    try {
      return render();
    } catch (failure) {
      // a log entry or error that cannot even be printed is a defect of its own
      return `UNRENDERABLE ${String(failure)}`;
    }
  });
}

async function oneCall(
  id: number,
  rng: Prng,
  server: HostileServer,
  elsewhere: HostileServer,
  tally: Tally,
): Promise<void> {
  const operation = rng.pick(OPERATIONS);
  const scenario: Scenario = rng.pick(SCENARIOS);
  const secrets: CallSecrets = {
    apiKey: randomSecret(rng, 'key-'),
    providerToken: randomSecret(rng, 'ghp_'),
    mcpApiKey: randomSecret(rng, 'mcpk-'),
    envValue: randomSecret(rng, 'envv-'),
    urlCredential: randomSecret(rng, 'qcred'),
    argCredential: randomSecret(rng, 'acred'),
  };
  const text = `title ${Array.from({ length: 40 }, () => rng.pick(MULTIBYTE)).join('')} #${id}`;
  const timing = scenario.timing?.(operation) ?? DEFAULT_TIMING;
  const deadline = deadlineOf(operation, scenario, timing);
  const context = {
    rng,
    operation,
    text,
    elsewhereUrl: elsewhere.url,
    callId: id,
    timeoutMs: timing.timeoutMs,
    received: [] as string[],
  };
  server.register(id, (socket, request, attempt) => scenario.respond(socket, request, attempt, context));
  const logs: RequestLogEntry[] = [];
  const baseUrl = `${server.url}/c${id}`;
  const authHeader = rng.pick(AUTH_HEADERS);
  const logBodies = rng.chance(0.5);
  const onLog = (entry: RequestLogEntry) => logs.push(entry);
  const clients: Clients = {
    app: new OpenHandsClient({
      baseUrl,
      apiKey: secrets.apiKey,
      authHeader,
      timeoutMs: timing.timeoutMs,
      streamTimeoutMs: timing.streamTimeoutMs,
      maxRateLimitRetries: RATE_LIMIT_RETRIES,
      maxRetryAfterMs: MAX_RETRY_AFTER_MS,
      maxResponseBytes: 256 * 1024,
      logBodies,
      onLog,
    }),
    agent: new AgentServerClient({
      endpoint: { baseUrl, conversationId: CONVERSATION_ID, sessionApiKey: secrets.apiKey },
      timeoutMs: timing.timeoutMs,
      archiveTimeoutMs: timing.timeoutMs,
      maxResponseBytes: 256 * 1024,
      logBodies,
      onLog,
    }),
  };
  // a byte call rightly takes whatever body a well-framed 2xx reply holds
  const anyBodyWillDo = operation.bytes === true && scenario.bytesMayPass === true;
  const problem = (what: string) => {
    if (tally.problems.length < 12)
      tally.problems.push(`#${id} ${operation.name} × ${scenario.name}: ${what}`);
  };

  const started = Date.now();
  const hang = Symbol('hang');
  let hangTimer: NodeJS.Timeout | undefined;
  const settled = await Promise.race([
    operation.run(clients, secrets).then(
      (value) => ({ value, error: undefined as unknown, ok: true }),
      (error: unknown) => ({ value: undefined, error, ok: false }),
    ),
    new Promise<typeof hang>((resolve) => (hangTimer = setTimeout(() => resolve(hang), deadline + HANG_MS))),
  ]);
  clearTimeout(hangTimer);
  tally.calls++;
  if (settled === hang) {
    tally.hung++;
    return problem('never settled');
  }
  const elapsed = Date.now() - started;
  if (elapsed > deadline + SLACK_MS) {
    tally.late++;
    problem(`settled after ${elapsed} ms (deadline ${deadline} ms)`);
  }
  if (settled.ok) {
    if (scenario.outcome === 'ok' && operation.intact(settled.value, text)) tally.correct++;
    else if (anyBodyWillDo) tally.bytesTaken++;
    else {
      tally.wrong++;
      problem(scenario.outcome === 'ok' ? 'the value came back altered' : 'succeeded where it must fail');
    }
  } else if (settled.error instanceof ApiError) {
    tally.apiErrors++;
    const wrong =
      scenario.outcome === 'ok' ? `failed: ${settled.error.message}` : scenario.checkError?.(settled.error);
    if (wrong) {
      tally.wrong++;
      problem(wrong);
    }
  } else {
    tally.nonApiErrors++;
    problem(`threw ${inspect(settled.error).slice(0, 300)}`);
  }
  const everySecret = [...Object.values(secrets), ...context.received];
  const shown = renderings(settled.error, logs);
  const unrenderable = shown.find((text) => text.startsWith('UNRENDERABLE'));
  if (unrenderable) {
    tally.wrong++;
    problem(unrenderable);
  }
  const leaked = everySecret.filter((secret) => shown.some((text) => text.includes(secret)));
  if (leaked.length > 0) {
    tally.leaks++;
    problem(`leaked ${leaked.join(', ')}`);
  }
}

describe('OpenHandsClient and AgentServerClient against a hostile server', function () {
  this.timeout(120_000);
  let server: HostileServer;
  let elsewhere: HostileServer;

  before(async () => {
    server = await startHostileServer();
    elsewhere = await startHostileServer();
  });
  after(async () => {
    await server?.close();
    await elsewhere?.close();
  });

  it(`${CALLS.toLocaleString('en')} seeded calls: an ApiError or the correct value, by the deadline, with no secret in sight`, async () => {
    const tally: Tally = {
      calls: 0,
      correct: 0,
      bytesTaken: 0,
      apiErrors: 0,
      nonApiErrors: 0,
      late: 0,
      hung: 0,
      leaks: 0,
      wrong: 0,
      strays: 0,
      problems: [],
    };
    const rng = new Prng(SEED);
    const started = Date.now();
    let next = 0;
    const worker = async () => {
      while (next < CALLS) await oneCall(next++, rng, server, elsewhere, tally);
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    tally.strays = server.strays.length + elsewhere.strays.length;
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `      hostile server: ${tally.calls} calls in ${seconds.toFixed(1)} s: ${tally.correct} correct values, ` +
        `${tally.bytesTaken} bodies taken as bytes, ${tally.apiErrors} ApiErrors; non-ApiError ${tally.nonApiErrors}, late ${tally.late}, hung ${tally.hung}, ` +
        `leaks ${tally.leaks}, wrong outcomes ${tally.wrong}, redirects followed ${tally.strays}`,
    );
    assert.deepEqual(tally.problems, []);
    assert.equal(tally.calls, CALLS);
    assert.equal(tally.nonApiErrors + tally.late + tally.hung + tally.leaks + tally.wrong + tally.strays, 0);
    assert.ok(tally.correct > CALLS / 20, 'correct replies are among the calls, and come through intact');
    assert.ok(seconds <= 60, `took ${seconds} s`);
  });
});
