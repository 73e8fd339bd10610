// The host half of opening a 10,000-event conversation, over real HTTP and WebSocket against the
// agent-server double: from `start()` to the first rows the panel can send (the newest page through
// the transcript) vs to the whole history as rows. The page's half is conversationPaint.ts.
import { performance } from 'node:perf_hooks';
import { AgentServerClient, agentEndpointOf, EventFeed, OpenHandsClient } from '../src/api';
import { Transcript } from '../src/webviews/conversation/host/rows/transcript';
import { startTestServer } from '../test/server';

const EVENTS = 10_000;
const RUNS = 5;

interface Opening {
  firstRowsMs: number;
  wholeMs: number;
  rows: number;
}

async function openOnce(client: OpenHandsClient, conversationId: string): Promise<Opening> {
  const [conversation] = await client.getConversations([conversationId]);
  const endpoint = conversation ? agentEndpointOf(conversation) : undefined;
  if (!endpoint) throw new Error('the bench conversation has no agent server');
  const transcript = new Transcript();
  const started = performance.now();
  let firstRowsMs = 0;
  const feed = new EventFeed({
    resolve: async () => ({ endpoint }),
    clientFor: (target) => new AgentServerClient({ endpoint: target }),
  });
  const done = new Promise<number>((resolve) => {
    feed.onEvents((change) => {
      if (change.prepended.length) transcript.prepend(change.prepended);
      if (change.appended.length) transcript.append(change.appended);
      if (!firstRowsMs && transcript.size > 0) firstRowsMs = performance.now() - started;
    });
    feed.onState((state) => {
      if (state.historyComplete && feed.events.size >= EVENTS) resolve(performance.now() - started);
    });
  });
  feed.start();
  const wholeMs = await done;
  feed.dispose();
  return { firstRowsMs, wholeMs, rows: transcript.size };
}

export async function conversationFeedReport(): Promise<string[]> {
  const server = await startTestServer({
    seed: { sandboxes: 2, conversations: 4, seed: 3 },
    timings: { agentStepMs: 0 },
  });
  try {
    const client = new OpenHandsClient({ baseUrl: server.url });
    const target = server.agent
      .conversations()
      .find((c) => server.state.sandboxes.find((s) => s.id === c.sandbox_id)?.status === 'RUNNING');
    if (!target) return ['conversation feed: the seed has no running sandbox; skipped'];
    server.agent.seedEvents(target.id, EVENTS);
    await openOnce(client, target.id); // warm up
    const runs: Opening[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await openOnce(client, target.id));
    const median = (pick: (run: Opening) => number) =>
      runs.map(pick).sort((a, b) => a - b)[Math.floor(RUNS / 2)] ?? 0;
    const first = median((run) => run.firstRowsMs);
    const whole = median((run) => run.wholeMs);
    return [
      `Conversation feed, ${EVENTS.toLocaleString('en')} events (${runs[0]?.rows ?? 0} rows), agent-server double over loopback, median of ${RUNS}:`,
      `  first rows (newest page) vs whole history as rows          ${(first / whole).toFixed(2)}x  (${first.toFixed(1)} ms / ${whole.toFixed(1)} ms)`,
    ];
  } finally {
    await server.close();
  }
}
