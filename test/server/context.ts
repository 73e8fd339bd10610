// Everything a route handler may touch, bundled so handlers stay plain functions.
import type { AgentServer } from './agentServer/agentServer';
import type { FaultRegistry } from './faults';
import type { IdFactory } from './ids';
import type { ResolvedOptions } from './options';
import type { RecordedRequest } from './requestLog';
import type { SandboxLifecycle } from './sandboxLifecycle';
import type { StartTaskRunner } from './startTaskRunner';
import type { ServerState } from './state';
import type { Clock } from './time';
import type { TimerRegistry } from './timers';

export interface ServerContext {
  state: ServerState;
  options: ResolvedOptions;
  clock: Clock;
  ids: IdFactory;
  timers: TimerRegistry;
  sandboxes: SandboxLifecycle;
  startTasks: StartTaskRunner;
  /** The agent-server double of every running sandbox. */
  agent: AgentServer;
  faults: FaultRegistry;
  requests: RecordedRequest[];
  /** TCP connections accepted since the last reset (a client that keeps its sockets opens few). */
  acceptedConnections(): number;
  /** `http://host:port` without a trailing slash; known once the server listens. */
  baseUrl(): string;
  /** Back to the seeded state; clears faults, recorded requests and timers. */
  reset(): void;
}
