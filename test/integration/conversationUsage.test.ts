// Cost, tokens and context in an open panel's header, in a real VS Code against the test server: each
// stats update the agent server sends reaches the header over the socket, with no request for it.
import * as assert from 'node:assert/strict';
import { statsUpdate } from '../shared/agentEvents';
import { eventually } from '../shared/eventually';
import { closePanels, openLive, panels, quietConversation } from './conversations';
import { useFreshExtension } from './extensionApi';
import { agentServer, server } from './serverControl';

describe('cost, tokens and context in the panel header', () => {
  const t = useFreshExtension();
  afterEach(() => closePanels(t.api));

  it('follows each stats update live, with zero extra requests', async () => {
    const conversation = quietConversation(t.api);
    await openLive(t.api, conversation.id);
    const hex = conversation.id.replace(/-/g, '');
    // the sidebar may poll meanwhile; what counts is a request about this conversation
    const aboutIt = async () =>
      (await server.requests()).filter(
        (request) =>
          !request.path.startsWith('/__control') &&
          (request.path.replace(/-/g, '').includes(hex) ||
            JSON.stringify(request.query).replace(/-/g, '').includes(hex)),
      );
    await server.clearRequests();
    const updates = [
      { cost: 0.12, prompt: 40_000, perTurn: 20_000 },
      { cost: 0.31, prompt: 95_000, perTurn: 60_000 },
      { cost: 4.1, prompt: 200_000, perTurn: 116_000 },
    ];
    const summaries: string[] = [];
    for (const update of updates) {
      await agentServer.append(conversation.id, [
        statsUpdate({ agent: { ...update, budget: 5, completion: 15_000, contextWindow: 200_000 } }),
      ]);
      const snapshot = await eventually(
        () => panels(t.api).snapshot(conversation.id),
        (shown) => shown?.header.usage?.breakdown[0]?.value.startsWith(`$${update.cost.toFixed(2)}`) === true,
      );
      summaries.push(snapshot?.header.usage?.summary ?? '');
    }
    assert.deepEqual(summaries, [
      '$0.12 of $5.00 · 55k tokens · context 10 %',
      '$0.31 of $5.00 · 110k tokens · context 30 %',
      '$4.10 of $5.00 · 215k tokens · context 58 %',
    ]);
    const last = panels(t.api).snapshot(conversation.id)?.header.usage;
    assert.equal(last?.source, 'live');
    assert.equal(last?.warning, '82 % of the budget ($5.00) used');
    assert.deepEqual(await aboutIt(), [], 'no request for the figures');
  });
});
