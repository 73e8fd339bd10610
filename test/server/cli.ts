// `npm run server -- --port 3000 --seed 25`: runs the test server standalone for the demo, manual
// testing and out-of-process suites.
import { parseArgs } from 'node:util';
import type { FaultRule } from './faults';
import type { HostedAuthOptions, TimingOptions } from './options';
import { startTestServer } from './server';

const USAGE = `Usage: npm run server -- [options]
  --port N                 port (default 3000; 0 = random)
  --host H                 host (default 127.0.0.1)
  --seed N                 sample data size: N conversations, ceil(N/4) sandboxes
  --sandboxes N            number of seeded sandboxes (overrides --seed)
  --conversations N        number of seeded conversations (overrides --seed)
  --random-seed N          PRNG seed for the sample data (default 1)
  --session-api-key K      require X-Session-API-Key on legacy /api/* routes
  --hosted-api-key K       SaaS-like: every /api route needs this key
  --hosted-header H        authorization-bearer (default) or x-access-token
  --store-mcp-config       keep mcp_config sent to /api/add-git-providers
  --sandbox-filter         apply sandbox_id__eq on conversation search (newer/hosted servers)
  --rate-limit             emulate the 10 req/s per client limit
  --max-running N          running sandboxes before old ones are paused (default 5)
  --latency MS             add this delay to every request
  --fault-rate P           answer this fraction (0..1) of /api requests with a 500
  --agent-step-ms MS       pause between the agent-server double's run steps (default 150)
  --ws-ping-ms MS          agent-server WebSocket ping interval / pong timeout (default 20000)
  --ws-auth-timeout-ms MS  agent-server WebSocket first-message auth timeout (default 10000)
  --legacy-agent-server    older agent servers: no first-message auth, resend_mode ignored
  --fast                   divide lifecycle timings by 10
  --quiet                  do not log requests
  --help`;

function numberFlag(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new Error(`--${name} expects a number, got "${value}"`);
  return parsed;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      sandboxes: { type: 'string' },
      conversations: { type: 'string' },
      'random-seed': { type: 'string' },
      'session-api-key': { type: 'string' },
      'hosted-api-key': { type: 'string' },
      'hosted-header': { type: 'string' },
      'store-mcp-config': { type: 'boolean' },
      'sandbox-filter': { type: 'boolean' },
      'rate-limit': { type: 'boolean' },
      'max-running': { type: 'string' },
      latency: { type: 'string' },
      'fault-rate': { type: 'string' },
      'agent-step-ms': { type: 'string' },
      'ws-ping-ms': { type: 'string' },
      'ws-auth-timeout-ms': { type: 'string' },
      'legacy-agent-server': { type: 'boolean' },
      fast: { type: 'boolean' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const size = numberFlag(values.seed, 'seed') ?? 0;
  const persistentFaults: FaultRule[] = [];
  const latency = numberFlag(values.latency, 'latency');
  if (latency !== undefined && latency > 0) persistentFaults.push({ kind: 'latency', ms: latency });
  const faultRate = numberFlag(values['fault-rate'], 'fault-rate');
  if (faultRate !== undefined && faultRate > 0) {
    persistentFaults.push({
      kind: 'status',
      status: 500,
      probability: faultRate,
      match: { path: /^\/api\// },
    });
  }
  const hostedKey = values['hosted-api-key'];
  const hostedHeader = values['hosted-header'] ?? 'authorization-bearer';
  if (hostedHeader !== 'authorization-bearer' && hostedHeader !== 'x-access-token') {
    throw new Error(`--hosted-header must be authorization-bearer or x-access-token`);
  }
  const hostedAuth: HostedAuthOptions | undefined = hostedKey
    ? { header: hostedHeader, apiKey: hostedKey }
    : undefined;
  const timings: TimingOptions = {
    ...(values.fast
      ? {
          sandboxStartMs: 150,
          sandboxPauseMs: 80,
          sandboxResumeMs: 120,
          startTaskStepMs: 70,
          agentStepMs: 15,
        }
      : {}),
    // Flags not given stay undefined, which resolveOptions leaves at the defaults.
    agentStepMs: numberFlag(values['agent-step-ms'], 'agent-step-ms'),
    wsPingMs: numberFlag(values['ws-ping-ms'], 'ws-ping-ms'),
    wsAuthTimeoutMs: numberFlag(values['ws-auth-timeout-ms'], 'ws-auth-timeout-ms'),
  };

  const server = await startTestServer({
    port: numberFlag(values.port, 'port') ?? 3000,
    host: values.host ?? '127.0.0.1',
    seed: {
      sandboxes: numberFlag(values.sandboxes, 'sandboxes') ?? Math.ceil(size / 4),
      conversations: numberFlag(values.conversations, 'conversations') ?? size,
      seed: numberFlag(values['random-seed'], 'random-seed') ?? 1,
    },
    sessionApiKey: values['session-api-key'],
    hostedAuth,
    timings,
    agentServer: { legacy: values['legacy-agent-server'] ?? false },
    storeMcpConfigOnAddGitProviders: values['store-mcp-config'] ?? false,
    filterConversationsBySandbox: values['sandbox-filter'] ?? false,
    rateLimit: values['rate-limit'] ?? false,
    maxRunningSandboxes: numberFlag(values['max-running'], 'max-running'),
    persistentFaults,
    onRequestComplete: values.quiet
      ? undefined
      : (request) => {
          const query = new URLSearchParams(
            Object.entries(request.query).flatMap(([name, list]) => list.map((value) => [name, value])),
          ).toString();
          console.log(
            `${request.method} ${request.path}${query ? `?${query}` : ''} → ${request.status || 'no reply'}`,
          );
        },
  });
  console.log(`OpenHands test server listening on ${server.url}`);

  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
