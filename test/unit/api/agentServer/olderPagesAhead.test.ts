// The older history is read one page ahead: the next page is asked for before the last one is
// applied, so the server's time and the feed's own work overlap, with never more than one request
// ahead; every event still arrives once, in order.
import assert from 'node:assert/strict';
import { AgentServerClient, EventFeed } from '../../../../src/api';
import { eventuallyDefined } from '../../../shared/eventually';
import { useFeedServer } from '../feedFixture';

describe('EventFeed: older pages one ahead', function () {
  this.timeout(20_000);
  const double = useFeedServer();

  it('asks for the next older page before it applies the last, one request ahead at most', async () => {
    const id = double.runningConversationId();
    double.server.agent.seedEvents(id, 1000);
    const endpoint = await double.endpointOf(id);
    /** What happened, in order: `asked` a page of history, or `applied` older events. */
    const steps: ('asked' | 'applied')[] = [];
    const feed = double.track(
      new EventFeed({
        resolve: async () => ({ endpoint }),
        clientFor: (target) => {
          const client = new AgentServerClient({ endpoint: target, timeoutMs: 5000 });
          const search = client.searchEvents.bind(client);
          client.searchEvents = (...args) => {
            steps.push('asked');
            return search(...args);
          };
          return client;
        },
      }),
    );
    feed.onEvents((change) => {
      if (change.prepended.length) steps.push('applied');
    });
    feed.start();
    await eventuallyDefined(async () => (feed.current.historyComplete ? true : undefined), 10_000);
    assert.deepEqual(double.held(feed), double.stored(id));
    const applied = steps.filter((step) => step === 'applied').length;
    assert.equal(applied, 9, 'the older 900 events in pages of 100');
    // the newest page, then each older page asked for before the one before it is applied
    assert.deepEqual(steps, [
      'asked',
      'asked',
      ...Array.from({ length: 8 }, () => ['asked', 'applied']).flat(),
      'applied',
    ]);
  });
});
