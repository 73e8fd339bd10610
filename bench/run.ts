// `npm run bench`: measures the client against the test server over real HTTP and reports ratios
// taken in the same run (absolute times vary between machines; ratios between two ways of doing
// the same work on the same machine are what we compare).
import { performance } from 'node:perf_hooks';
import axios from 'axios';
import { collectAll, OpenHandsClient, redactJson } from '../src/api';
import { JsonArrayStreamParser } from '../src/api/jsonArrayStream';
import { startTestServer } from '../test/server';
import { clientListingReport } from './clientListing';
import { connectionsReport } from './connections';
import { patchDifferentialReport } from './patchDifferential';
import { conversationFeedReport } from './conversationFeed';
import { conversationPaintReport } from './conversationPaint';
import { screenshotsReport } from './screenshots';
import { workbenchReport } from './workbench';
import { panelOpenReport } from './workbench/panelOpen';
import { refreshWorkbenchReport } from './workbench/refreshDriver';

interface Measurement {
  name: string;
  medianMs: number;
}

async function measure(
  name: string,
  runs: number,
  work: () => Promise<unknown> | unknown,
): Promise<Measurement> {
  for (let i = 0; i < 3; i++) await work(); // warm up JIT and sockets
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { name, medianMs: times[Math.floor(times.length / 2)] ?? 0 };
}

function ratio(label: string, numerator: Measurement, denominator: Measurement): string {
  const value = numerator.medianMs / denominator.medianMs;
  return `${label.padEnd(62)} ${value.toFixed(2)}x  (${numerator.medianMs.toFixed(2)} ms / ${denominator.medianMs.toFixed(2)} ms)`;
}

async function main(): Promise<void> {
  // `npm run bench -- panel-open`: the conversation panel's opening alone (a few minutes)
  if (process.argv.includes('panel-open')) {
    console.log((await panelOpenReport()).join('\n'));
    return;
  }
  const server = await startTestServer({ seed: { sandboxes: 60, conversations: 1000, seed: 1 } });
  try {
    const client = new OpenHandsClient({ baseUrl: server.url });
    const raw = axios.create({ baseURL: server.url });
    const lines: string[] = [];

    // 1. What validation costs: one page of 100 conversations through the client vs raw axios + JSON.
    const viaClient = await measure('client page of 100', 40, () =>
      client.searchConversations({ limit: 100 }),
    );
    const viaRaw = await measure('raw axios page of 100', 40, () =>
      raw.get('/api/v1/app-conversations/search?limit=100'),
    );
    lines.push(ratio('client (zod-validated) vs raw axios, 100 conversations', viaClient, viaRaw));

    // 2. Page size: loading 1000 conversations with 100 per page vs 20 per page.
    const big = await measure('1000 conversations, limit 100', 8, () =>
      collectAll((pageId, signal) => client.searchConversations({ pageId, limit: 100 }, { signal })),
    );
    const small = await measure('1000 conversations, limit 20', 8, () =>
      collectAll((pageId, signal) => client.searchConversations({ pageId, limit: 20 }, { signal })),
    );
    lines.push(ratio('1000 conversations: limit 20 vs limit 100 (round trips)', small, big));

    // 3. Batch get: 300 sandbox ids (chunked into calls of 99) vs 99 ids in one call.
    const ids = (await client.searchSandboxes({ limit: 60 })).items.map((s) => s.id);
    const many = Array.from({ length: 300 }, (_, i) => ids[i % ids.length] ?? '');
    const chunked = await measure('getSandboxes(300)', 20, () => client.getSandboxes(many));
    const single = await measure('getSandboxes(99)', 20, () => client.getSandboxes(many.slice(0, 99)));
    lines.push(ratio('getSandboxes: 300 ids (4 calls) vs 99 ids (1 call)', chunked, single));

    // 4. Streaming parser vs JSON.parse of the whole array (same data).
    const page = await client.searchConversations({ limit: 100 });
    const text = `[\n${page.items.map((item) => JSON.stringify(item)).join(',\n')}\n]`;
    const streamed = await measure('stream parser, 100 items in 1 KiB chunks', 200, () => {
      const parser = new JsonArrayStreamParser();
      for (let i = 0; i < text.length; i += 1024) parser.push(text.slice(i, i + 1024));
    });
    const whole = await measure('JSON.parse of the array', 200, () => JSON.parse(text));
    lines.push(ratio('stream-start parser vs JSON.parse (same bytes)', streamed, whole));

    // 5. Log redaction vs serialising the same body.
    const redacted = await measure('redactJson of a page', 200, () => redactJson(page));
    const stringify = await measure('JSON.stringify of a page', 200, () => JSON.stringify(page));
    lines.push(ratio('log redaction vs JSON.stringify (same page)', redacted, stringify));

    // 6. A sandbox's conversations: the OSS server ignores sandbox_id__eq (every page is read and
    //    filtered here) vs a newer server that applies it (one page).
    const filtering = await startTestServer({
      seed: { sandboxes: 60, conversations: 1000, seed: 1 },
      filterConversationsBySandbox: true,
    });
    try {
      const sandboxId = (await client.searchSandboxes({ limit: 1 })).items[0]?.id ?? '';
      const newer = new OpenHandsClient({ baseUrl: filtering.url });
      const scanned = await measure('listSandboxConversations, filter ignored', 8, () =>
        client.listSandboxConversations(sandboxId),
      );
      const filtered = await measure('listSandboxConversations, filter applied', 8, () =>
        newer.listSandboxConversations(sandboxId),
      );
      lines.push(ratio("a sandbox's conversations: OSS scan vs sandbox_id__eq", scanned, filtered));
    } finally {
      await filtering.close();
    }

    console.log(`OpenHands client benchmarks (median of runs, Node ${process.version})`);
    for (const line of lines) console.log(`  ${line}`);
  } finally {
    await server.close();
  }
  // The client's hot path against raw Node, its connections, and a click's round trips.
  console.log((await clientListingReport()).join('\n'));
  console.log((await connectionsReport()).join('\n'));
  // Opening a long conversation: the host's half (feed and rows), then the page's half.
  console.log((await conversationFeedReport()).join('\n'));
  // The conversation panel's page in Chromium (says it is skipped when /usr/bin/chromium is missing).
  console.log((await conversationPaintReport()).join('\n'));
  // 500 screenshots: the host's and the page's memory stay within their budgets.
  console.log((await screenshotsReport()).join('\n'));
  // Apply against plain git apply on 1,000 generated patches (npx tsx bench/patchDifferential.ts alone).
  console.log((await patchDifferentialReport()).join('\n'));
  // Activation, the bundles and the VSIX: the production build in a real VS Code (code-server).
  console.log((await workbenchReport()).join('\n'));
  // The refresh and idle figures, in a real VS Code (npx tsx bench/workbench/refreshDriver.ts alone).
  console.log((await refreshWorkbenchReport()).join('\n'));
  // The conversation panel's opening against an empty webview (npm run bench -- panel-open alone).
  console.log((await panelOpenReport()).join('\n'));
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
