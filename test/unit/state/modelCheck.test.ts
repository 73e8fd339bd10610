// The readiness read every flow makes (Connect, New Conversation, the walkthrough), over real HTTP
// against the test server as a fresh OpenHands 1.11, a half-configured one, a configured one, a server
// without the settings route, and one whose read fails: a failure is `unknown` and never throws.
import assert from 'node:assert/strict';
import { checkModel, needsModelSetup } from '../../../src/state/modelCheck';
import { useTestServer } from '../api/harness';

/** The settings read (both generations), and nothing else. */
const SETTINGS_PATH = /^\/api(\/v1)?\/settings$/;

const LLM_KEY = 'sk-llm-check-secret-41c7';

describe('checkModel (the readiness every flow reads once)', () => {
  const t = useTestServer({ legacySettingsRoutes: false });

  it('a fresh 1.11 (404 "Settings not found") has no settings: the flows offer Set Up the Model…', async () => {
    t.server.state.settings = null;
    const check = await checkModel(t.client);
    assert.deepEqual(check, { readiness: 'no-settings' });
    assert.equal(needsModelSetup(check), true);
  });

  it('settings with no model are no-model', async () => {
    const settings = t.server.state.settings;
    assert.ok(settings);
    settings.llm_model = null;
    const check = await checkModel(t.client);
    assert.deepEqual(check, { readiness: 'no-model' });
    assert.equal(needsModelSetup(check), true);
  });

  it('a model whose provider needs a key, with none stored, is no-key and names the model', async () => {
    const settings = t.server.state.settings;
    assert.ok(settings);
    settings.llm_model = 'openai/gpt-5.5';
    settings.llm_api_key = null;
    const check = await checkModel(t.client);
    assert.deepEqual(check, { readiness: 'no-key', model: 'openai/gpt-5.5' });
    assert.equal(needsModelSetup(check), true);
  });

  it('a model with its key is ready; the key is never part of the answer', async () => {
    const settings = t.server.state.settings;
    assert.ok(settings);
    settings.llm_api_key = LLM_KEY;
    const check = await checkModel(t.client);
    assert.equal(check.readiness, 'ready');
    assert.equal(needsModelSetup(check), false);
    assert.doesNotMatch(JSON.stringify(check), new RegExp(LLM_KEY));
  });

  it('a server with no settings route (the web UI page for it) is unknown: nothing blocks on it', async () => {
    t.server.faults.add({ kind: 'html', match: { path: SETTINGS_PATH } });
    const failures: string[] = [];
    const check = await checkModel(t.client, { onFailure: (reason) => failures.push(reason) });
    assert.deepEqual(check, { readiness: 'unknown' });
    assert.equal(needsModelSetup(check), false);
    assert.deepEqual(failures, [], 'a route not offered is not a failure');
  });

  it('a read that fails (500) or never answers (past its bound) is unknown and reported, never thrown', async () => {
    t.server.faults.add({ kind: 'status', status: 500, times: 1, match: { path: SETTINGS_PATH } });
    const failures: string[] = [];
    const failed = await checkModel(t.client, { onFailure: (reason) => failures.push(reason) });
    assert.deepEqual(failed, { readiness: 'unknown' });
    assert.equal(failures.length, 1);

    t.server.faults.add({ kind: 'hang', match: { path: SETTINGS_PATH } });
    // the bound, not the client's own (2 s here, 30 s by default), ends the wait
    const hung = await checkModel(t.client, { timeoutMs: 50, onFailure: (reason) => failures.push(reason) });
    assert.deepEqual(hung, { readiness: 'unknown' });
    assert.equal(failures.length, 2);
    assert.equal(needsModelSetup(hung), false);
  });
});
