// Listing 10,000 conversations through the client vs raw `http.get` + `JSON.parse` of the same pages.
// The test server runs in a child process, so `process.cpuUsage()` here counts the client's work alone.
import axios from 'axios';
import { Agent, get } from 'node:http';
import { performance } from 'node:perf_hooks';
import { collectAll, OpenHandsClient } from '../src/api';
import { startServerProcess } from './serverProcess';

const CONVERSATIONS = 10_000;
const PAGE = 100;
const RUNS = 11;

interface Cost {
  wallMs: number;
  cpuMs: number;
}

export async function clientListingReport(): Promise<string[]> {
  const server = await startServerProcess(['--conversations', String(CONVERSATIONS), '--sandboxes', '2500']);
  try {
    const client = new OpenHandsClient({ baseUrl: server.url });
    const viaClient = () =>
      collectAll((pageId, signal) => client.searchConversations({ pageId, limit: PAGE }, { signal }), {
        maxItems: CONVERSATIONS,
      });
    const viaRaw = () => rawListing(server.url);
    // axios alone, as the transport sets it up (text, a kept-alive agent, Node's http): its own share
    const bareAxios = axios.create({
      responseType: 'text',
      transformResponse: [(data: unknown) => data],
      httpAgent: new Agent({ keepAlive: true }),
      adapter: 'http',
      proxy: false,
      maxRedirects: 0,
    });
    const viaAxios = () => rawListing(server.url, async (url) => (await bareAxios.get<string>(url)).data);
    const [clientCount, rawCount] = [(await viaClient()).length, (await viaRaw()).length];
    // sub-conversations are not listed: both ways must see the same (nearly 10,000) rows
    if (clientCount !== rawCount || clientCount < CONVERSATIONS * 0.99)
      throw new Error(`the client listed ${clientCount} conversations, raw reads ${rawCount}`);
    if ((await viaAxios()).length !== rawCount) throw new Error('axios alone read another listing');
    const clientCosts: Cost[] = [];
    const rawCosts: Cost[] = [];
    const axiosCosts: Cost[] = [];
    // alternated, so drift on a shared machine falls on all alike
    for (let run = 0; run < RUNS; run++) {
      rawCosts.push(await cost(viaRaw));
      axiosCosts.push(await cost(viaAxios));
      clientCosts.push(await cost(viaClient));
    }
    const c = medianCost(clientCosts);
    const r = medianCost(rawCosts);
    const a = medianCost(axiosCosts);
    return [
      `Listing ${CONVERSATIONS.toLocaleString('en')} conversations (pages of ${PAGE}, server in a child process, median of ${RUNS})`,
      `  client (collectAll of searchConversations) vs raw http.get + JSON.parse, same pages:`,
      `    wall ${(c.wallMs / r.wallMs).toFixed(2)}x  (${c.wallMs.toFixed(0)} ms / ${r.wallMs.toFixed(0)} ms)`,
      `    CPU  ${(c.cpuMs / r.cpuMs).toFixed(2)}x  (${c.cpuMs.toFixed(0)} ms / ${r.cpuMs.toFixed(0)} ms, process.cpuUsage)`,
      `  axios alone (the transport's settings) + JSON.parse vs raw, same pages: the share axios takes`,
      `    CPU  ${(a.cpuMs / r.cpuMs).toFixed(2)}x  (${a.cpuMs.toFixed(0)} ms / ${r.cpuMs.toFixed(0)} ms)`,
      `  client vs axios alone, same pages: the share that is the client's own (check, secret scan, bookkeeping)`,
      `    CPU  ${(c.cpuMs / a.cpuMs).toFixed(2)}x  (${c.cpuMs.toFixed(0)} ms / ${a.cpuMs.toFixed(0)} ms)`,
    ];
  } finally {
    server.process.kill();
  }
}

async function cost(work: () => Promise<unknown>): Promise<Cost> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000 };
}

function medianCost(costs: Cost[]): Cost {
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  return { wallMs: median(costs.map((c) => c.wallMs)), cpuMs: median(costs.map((c) => c.cpuMs)) };
}

/** The same pages the client reads, with nothing but Node's `http.get` (or `read`) and `JSON.parse`. */
async function rawListing(
  baseUrl: string,
  read: (url: string) => Promise<string> = getText,
): Promise<unknown[]> {
  const items: unknown[] = [];
  let pageId: string | null = null;
  do {
    const query = new URLSearchParams({ limit: String(PAGE) });
    if (pageId !== null) query.set('page_id', pageId);
    const page = JSON.parse(await read(`${baseUrl}/api/v1/app-conversations/search?${query}`)) as {
      items: unknown[];
      next_page_id: string | null;
    };
    items.push(...page.items);
    pageId = page.next_page_id;
  } while (pageId !== null && items.length < CONVERSATIONS);
  return items;
}

function getText(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get(url, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      response.on('error', reject);
    }).on('error', reject);
  });
}
