// Public options of the test server and their resolved defaults.

export interface SeedOptions {
  sandboxes?: number;
  conversations?: number;
  /** PRNG seed: same seed, same data (ids, titles, statuses, times relative to `baseTime`). */
  seed?: number;
  /** Epoch ms the seeded times are relative to; defaults to the server start (so "2 h ago" stays true). */
  baseTime?: number;
}

export interface TimingOptions {
  sandboxStartMs?: number;
  sandboxPauseMs?: number;
  sandboxResumeMs?: number;
  startTaskStepMs?: number;
  /** How long requests 11-20 within a second are held when `rateLimit` is on (the real server: 1 s). */
  rateLimitDelayMs?: number;
  /** Pause between the steps of the agent-server double's scripted run (default 150). */
  agentStepMs?: number;
  /** Agent-server WebSocket protocol ping interval; no pong within it closes 1011 (real: 20 s). */
  wsPingMs?: number;
  /** How long an agent-server WebSocket waits for its first-message auth frame (real: 10 s). */
  wsAuthTimeoutMs?: number;
}

export interface AgentServerOptions {
  /**
   * Behave like older agent servers (sandboxes of older images): no first-message auth (a socket
   * without `?session_api_key=` is refused with a 403 handshake) and `resend_mode` is ignored (only
   * `resend_all=true` replays). Default false (agent server 1.34.0).
   */
  legacy?: boolean;
}

export interface HostedAuthOptions {
  header: 'authorization-bearer' | 'x-access-token';
  apiKey: string;
}

import type { FaultRule } from './faults';
import type { RecordedRequest } from './requestLog';

export interface TestServerOptions {
  port?: number;
  host?: string;
  seed?: SeedOptions;
  sessionApiKey?: string;
  hostedAuth?: HostedAuthOptions;
  timings?: TimingOptions;
  agentServer?: AgentServerOptions;
  storeMcpConfigOnAddGitProviders?: boolean;
  /**
   * Serve the legacy settings and git-provider routes (`/api/settings`, `/api/add-git-providers`, …)
   * beside 1.11's `/api/v1` ones, as servers before 1.11 did. `false` is openhands-ai 1.11.0. Default true.
   */
  legacySettingsRoutes?: boolean;
  /**
   * `false` serves none of the routes 1.11 added for settings (`/api/v1/settings*`, the model catalogue,
   * `switch_profile`): a server before 1.11, where only the legacy `/api/settings` holds the model.
   */
  routesSince1_11?: boolean;
  /** Serve HTTPS with this PEM key and certificate (see `selfSignedCertificate`). */
  tls?: { key: string; cert: string };
  /** Apply `sandbox_id__eq` as newer/hosted servers do; the OSS server (the default) ignores it. */
  filterConversationsBySandbox?: boolean;
  rateLimit?: boolean;
  maxRunningSandboxes?: number;
  /** Faults installed at start and re-installed by every reset() (the CLI's --latency/--fault-rate). */
  persistentFaults?: FaultRule[];
  /** Called once per (non-control) request when its response is done or the socket closed. */
  onRequestComplete?: (request: RecordedRequest) => void;
}

export interface ResolvedTimings {
  sandboxStartMs: number;
  sandboxPauseMs: number;
  sandboxResumeMs: number;
  startTaskStepMs: number;
  rateLimitDelayMs: number;
  agentStepMs: number;
  wsPingMs: number;
  wsAuthTimeoutMs: number;
}

export interface ResolvedOptions {
  port: number;
  host: string;
  seed: { sandboxes: number; conversations: number; seed: number; baseTime: number };
  sessionApiKey: string | null;
  hostedAuth: HostedAuthOptions | null;
  timings: ResolvedTimings;
  agentServer: { legacy: boolean };
  storeMcpConfigOnAddGitProviders: boolean;
  legacySettingsRoutes: boolean;
  routesSince1_11: boolean;
  filterConversationsBySandbox: boolean;
  tls: { key: string; cert: string } | null;
  rateLimit: boolean;
  maxRunningSandboxes: number;
  persistentFaults: FaultRule[];
  onRequestComplete: ((request: RecordedRequest) => void) | null;
}

/** Demo-friendly defaults: slow enough to watch a sandbox start, fast enough not to bore. */
export const DEFAULT_TIMINGS: ResolvedTimings = {
  sandboxStartMs: 1500,
  sandboxPauseMs: 800,
  sandboxResumeMs: 1200,
  startTaskStepMs: 700,
  rateLimitDelayMs: 1000,
  agentStepMs: 150,
  wsPingMs: 20_000,
  wsAuthTimeoutMs: 10_000,
};

export function resolveOptions(options: TestServerOptions = {}): ResolvedOptions {
  return {
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    seed: {
      sandboxes: options.seed?.sandboxes ?? 0,
      conversations: options.seed?.conversations ?? 0,
      seed: options.seed?.seed ?? 1,
      baseTime: options.seed?.baseTime ?? Date.now(),
    },
    sessionApiKey: options.sessionApiKey ?? null,
    hostedAuth: options.hostedAuth ?? null,
    timings: { ...DEFAULT_TIMINGS, ...definedOnly(options.timings ?? {}) },
    agentServer: { legacy: options.agentServer?.legacy ?? false },
    storeMcpConfigOnAddGitProviders: options.storeMcpConfigOnAddGitProviders ?? false,
    legacySettingsRoutes: options.legacySettingsRoutes ?? true,
    routesSince1_11: options.routesSince1_11 ?? true,
    filterConversationsBySandbox: options.filterConversationsBySandbox ?? false,
    tls: options.tls ?? null,
    rateLimit: options.rateLimit ?? false,
    maxRunningSandboxes: options.maxRunningSandboxes ?? 5,
    persistentFaults: options.persistentFaults ?? [],
    onRequestComplete: options.onRequestComplete ?? null,
  };
}

function definedOnly(timings: TimingOptions): Partial<ResolvedTimings> {
  return Object.fromEntries(Object.entries(timings).filter(([, value]) => value !== undefined));
}
