// The context keys that show Rename, Delete and Download only where the server has the routes: read
// from its /openapi.json once its views load, against the test server as OpenHands 1.11 and as an
// older server, and shown (each call finding out) when the server hides the document.
import assert from 'node:assert/strict';
import { MANAGE_CONTEXT_KEYS, ManageOffersContext } from '../../../src/views/manageOffersContext';
import { eventually } from '../../shared/eventually';
import { commands } from '../../shared/vscodeStandIn/standIn';
import { useExtensionState, type ExtensionState } from '../state/extensionState';

function keys(): unknown[] {
  return Object.values(MANAGE_CONTEXT_KEYS).map((key) => commands.context.get(key));
}

async function loaded(t: ExtensionState): Promise<ManageOffersContext> {
  const context = new ManageOffersContext(t.connection, t.store, t.log);
  await t.store.refresh();
  await eventually(() => t.server.requests.some((r) => r.path === '/openapi.json'), Boolean, {
    description: 'the document to be read',
  });
  return context;
}

describe('ManageOffersContext', () => {
  describe('OpenHands 1.11', () => {
    const t = useExtensionState();
    it('sets the three keys once the views load, from the document', async () => {
      const context = await loaded(t);
      await eventually(keys, (values) => values.every((value) => value === true));
      context.dispose();
    });
  });

  describe('OpenHands 1.11, asked before the views load (New Conversation at once)', () => {
    const t = useExtensionState();
    it('reads the document then, once, and says the pending-messages route', async () => {
      const context = new ManageOffersContext(t.connection, t.store, t.log);
      const [first, second] = await Promise.all([context.read(), context.read()]);
      assert.equal(first.queueMessage, true);
      assert.equal(second.queueMessage, true);
      assert.equal(t.server.requests.filter((r) => r.path === '/openapi.json').length, 1);
      context.dispose();
    });
  });

  describe('a server before 1.11', () => {
    const t = useExtensionState({ routesSince1_11: false });
    it('hides the commands, and has no pending-messages route', async () => {
      assert.equal((await new ManageOffersContext(t.connection, t.store, t.log).read()).queueMessage, false);
      const context = await loaded(t);
      await eventually(keys, (values) => values.every((value) => value === false));
      context.dispose();
    });
  });

  describe('a server that hides /openapi.json', () => {
    const t = useExtensionState();
    it('shows them: each call finds out for itself', async () => {
      t.server.faults.add({ kind: 'status', status: 404, match: { path: '/openapi.json' } });
      const context = await loaded(t);
      await eventually(keys, (values) => values.every((value) => value === true));
      context.dispose();
    });
  });
});
