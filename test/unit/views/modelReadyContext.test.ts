// The walkthrough's "Set up the model" step ticks on `openhands.modelReady`: what the flows report,
// one read when a server's views first load (against the test server), and false again for a new server.
import assert from 'node:assert/strict';
import { MODEL_READY_CONTEXT, ModelReadyContext } from '../../../src/views/modelReadyContext';
import { commands, settings } from '../../shared/vscodeStandIn/standIn';
import { eventually } from '../../shared/eventually';
import { useExtensionState } from '../state/extensionState';

describe('ModelReadyContext (the walkthrough step "Set up the model")', () => {
  const t = useExtensionState({ legacySettingsRoutes: false });
  let context: ModelReadyContext;
  const settingsReads = () => t.server.requests.filter((r) => r.path === '/api/v1/settings').length;

  beforeEach(() => {
    context = new ModelReadyContext(t.connection, t.store, t.log);
  });
  afterEach(() => context.dispose());

  it('a configured server: read once when the views first load, and the key says ready', async () => {
    assert.equal(commands.context.get(MODEL_READY_CONTEXT), undefined, 'nothing read before a view loads');
    assert.equal(settingsReads(), 0);
    await t.store.refresh();
    await eventually(() => context.ready, Boolean, { description: 'the key says ready' });
    assert.equal(commands.context.get(MODEL_READY_CONTEXT), true);
    await t.store.refresh();
    assert.equal(settingsReads(), 1, 'a later refresh reads nothing more');
  });

  it('a fresh server stays not ready until a flow or a refresh finds a model; another server starts over', async () => {
    t.server.state.settings = null;
    await t.store.refresh();
    await eventually(settingsReads, (reads) => reads === 1, { description: 'one settings read' });
    assert.equal(await context.refresh().then((check) => check?.readiness), 'no-settings');
    assert.equal(commands.context.get(MODEL_READY_CONTEXT), false);
    context.report({ readiness: 'ready' });
    assert.equal(commands.context.get(MODEL_READY_CONTEXT), true);
    // another server: what was known says nothing of it
    settings.set({ 'openhands.serverUrl': `${t.server.url}/`, 'openhands.serverName': 'Other' });
    await t.connection.rebuild();
    assert.equal(commands.context.get(MODEL_READY_CONTEXT), false);
  });
});
