// The conversation of `npm run bench`'s screenshot figures: an agent testing a web app, 500 rounds
// of the usual steps around a browser screenshot (a 300 KB PNG, valid: `paddedPng`), stored in the
// agent-server double over its control routes. The same rounds without their screenshots are the
// baseline the host's memory is compared with.
import { agentDouble, browserRound, terminalRound } from '../test/e2e/conversationPanel';
import { paddedPng } from '../test/shared/images';

export const ROUNDS = 500;
export const SCREENSHOT_BYTES = 300 * 1024;
/** Rounds stored per control request (each ~10 MB of JSON with its screenshots). */
const ROUNDS_PER_REQUEST = 20;

export interface StoredConversation {
  events: number;
  /** The stored events' size as the server sends them (JSON characters). */
  rawChars: number;
}

/** A navigation, a look at the page (its screenshot, when given), a command now and then, a message. */
function round(index: number, screenshotBase64: string | undefined): Record<string, unknown>[] {
  const url = `http://localhost:5173/orders/${index}`;
  return [
    ...browserRound(
      { kind: 'BrowserNavigateAction', url, new_tab: false },
      `Navigated to ${url}`,
      `nav-${index}`,
    ),
    ...browserRound(
      { kind: 'BrowserGetStateAction', include_screenshot: true },
      `Page: Order ${index} · 3 items · Checkout`,
      `look-${index}`,
      screenshotBase64,
    ),
    ...(index % 5 === 0
      ? terminalRound(
          `npm test -- orders/${index}`,
          `PASS orders/${index}.test.ts (4 tests)`,
          0,
          `test-${index}`,
        )
      : []),
    {
      kind: 'MessageEvent',
      source: 'agent',
      llm_message: {
        role: 'assistant',
        content: [{ type: 'text', text: `Order **${index}** renders its items and total; next page.` }],
      },
    },
  ];
}

/** Replaces the conversation's events with the rounds (with their screenshots or without). */
export async function storeConversation(
  serverUrl: string,
  conversationId: string,
  withScreenshots: boolean,
): Promise<StoredConversation> {
  const screenshot = withScreenshots ? paddedPng(SCREENSHOT_BYTES).toString('base64') : undefined;
  const emptied = await fetch(new URL(`/__control/agent/conversations/${conversationId}/seed`, serverUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ count: 0 }),
  });
  if (!emptied.ok) throw new Error(`emptying the bench conversation: HTTP ${emptied.status}`);
  const stored = { events: 0, rawChars: 0 };
  const add = async (events: Record<string, unknown>[]) => {
    const reply = (await agentDouble.append(serverUrl, conversationId, events)) as { events: unknown[] };
    stored.events += reply.events.length;
    for (const event of reply.events) stored.rawChars += JSON.stringify(event).length;
  };
  await add([
    {
      kind: 'MessageEvent',
      source: 'user',
      llm_message: {
        role: 'user',
        content: [{ type: 'text', text: 'Open every order page of the shop and check that it renders.' }],
      },
    },
  ]);
  for (let start = 0; start < ROUNDS; start += ROUNDS_PER_REQUEST) {
    const events: Record<string, unknown>[] = [];
    for (let index = start; index < Math.min(ROUNDS, start + ROUNDS_PER_REQUEST); index++)
      events.push(...round(index, screenshot));
    await add(events);
  }
  return stored;
}
