// startTestServer(): wires state, timers, lifecycle and the request pipeline onto a node:http server.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { AgentServer, type AgentControl } from './agentServer/agentServer';
import type { ServerContext } from './context';
import { FaultRegistry, type FaultController } from './faults';
import { IdFactory } from './ids';
import { resolveOptions, type TestServerOptions } from './options';
import { handleRequest } from './pipeline';
import { Prng } from './prng';
import { RateLimiter } from './rateLimiter';
import { cloneSelectedRepository } from './repositoryClone';
import type { RecordedRequest } from './requestLog';
import { SandboxLifecycle } from './sandboxLifecycle';
import { seedState } from './seed';
import { StartTaskRunner } from './startTaskRunner';
import { emptyState, replaceState, type ServerState } from './state';
import { Clock } from './time';
import { TimerRegistry } from './timers';

export interface TestServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  port: number;
  state: ServerState;
  faults: FaultController;
  /** The agent-server double (events, runs, sockets) of the sandboxes; see README "Agent server". */
  agent: AgentControl;
  requests: RecordedRequest[];
  /** TCP connections accepted since the start or the last `reset` (keep-alive reuses them). */
  readonly acceptedConnections: number;
  /** TCP connections open now. */
  readonly openConnections: number;
  /** The next `count` (default 1) start tasks end in ERROR with this detail (may be ""). */
  failNextStartTasks(detail: string, count?: number): void;
  /** Holds every start at STARTING_CONVERSATION (`true`) until called with `false`. */
  holdStarts(on: boolean): void;
  /** Back to the seeded state; clears faults, recorded requests and pending timers. */
  reset(): void;
  /** Stops listening, drops open connections (hung ones too) and clears every timer. */
  close(): Promise<void>;
}

/** Runtime ids use their own stream so they do not depend on how much seed data was drawn. */
const RUNTIME_SEED_SALT = 0x9e3779b9;

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const resolved = resolveOptions(options);
  const state = emptyState();
  const timers = new TimerRegistry();
  const clock = new Clock();
  const runtimeRandom = new Prng(resolved.seed.seed ^ RUNTIME_SEED_SALT);
  const ids = new IdFactory(runtimeRandom);
  const faults = new FaultRegistry();
  const requests: RecordedRequest[] = [];
  const rateLimiter = new RateLimiter();
  let baseUrl = '';
  let acceptedConnections = 0;
  let openConnections = 0;
  const sandboxes = new SandboxLifecycle({
    state,
    ids,
    clock,
    timers,
    timings: resolved.timings,
    maxRunningSandboxes: resolved.maxRunningSandboxes,
    onRemove: (sandboxId) => agent.forgetSandbox(sandboxId),
  });
  const agent = new AgentServer({ state, clock, timers, options: resolved });
  const startTasks = new StartTaskRunner({
    state,
    ids,
    clock,
    timers,
    timings: resolved.timings,
    sandboxes,
    baseUrl: () => baseUrl,
    startAgent: (conversationId, message) => agent.startConversation(conversationId, message.content),
    prepareRepository: (sandboxId, request) =>
      cloneSelectedRepository(
        {
          state,
          git: agent.workspaces.git,
          sandboxDir: (id) => agent.prepareSandbox(id),
          // not the seeded stream: the ids a test expects stay the same with or without a clone
          randomName: () => randomBytes(16).toString('base64url').replace(/[-_]/g, '').slice(0, 22),
        },
        sandboxId,
        request,
      ),
  });

  const reset = (): void => {
    timers.clearAll();
    agent.reset();
    sandboxes.reset();
    startTasks.reset();
    faults.clear();
    for (const rule of resolved.persistentFaults) faults.add(rule);
    rateLimiter.reset();
    requests.length = 0;
    acceptedConnections = 0;
    runtimeRandom.reseed(resolved.seed.seed ^ RUNTIME_SEED_SALT);
    replaceState(
      state,
      seedState({
        ...resolved.seed,
        maxRunningSandboxes: resolved.maxRunningSandboxes,
        baseUrl,
        sandboxDir: (sandboxId) => agent.workspaces.sandboxDir(sandboxId),
      }),
    );
    // Seeded STARTING sandboxes come up like freshly started ones.
    for (const sandbox of state.sandboxes) if (sandbox.status === 'STARTING') sandboxes.settle(sandbox.id);
  };

  const context: ServerContext = {
    state,
    options: resolved,
    clock,
    ids,
    timers,
    sandboxes,
    startTasks,
    agent,
    faults,
    requests,
    acceptedConnections: () => acceptedConnections,
    baseUrl: () => baseUrl,
    reset,
  };
  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    void handleRequest(request, response, { context, rateLimiter });
  };
  const server = resolved.tls ? createTlsServer(resolved.tls, handle) : createServer(handle);
  server.on('upgrade', agent.handleUpgrade);
  server.on('connection', (socket: Socket) => {
    acceptedConnections++;
    openConnections++;
    socket.once('close', () => openConnections--);
  });
  await listen(server, resolved.port, resolved.host);
  const port = (server.address() as AddressInfo).port;
  baseUrl = `${resolved.tls ? 'https' : 'http'}://${urlHost(resolved.host)}:${port}`;
  reset();

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      timers.clearAll();
      // a clone still running moves no task on once the server is gone
      startTasks.reset();
      sandboxes.reset();
      agent.close();
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  };

  return {
    url: baseUrl,
    port,
    state,
    faults,
    agent,
    requests,
    get acceptedConnections() {
      return acceptedConnections;
    },
    get openConnections() {
      return openConnections;
    },
    failNextStartTasks: (detail, count) => startTasks.failNext(detail, count),
    holdStarts: (on) => startTasks.hold(on),
    reset,
    close,
  };
}
