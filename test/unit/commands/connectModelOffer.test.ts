// Connect says whether the server it saved can answer a conversation: the double as a fresh OpenHands
// 1.11 (no settings), with a model but no key, and configured; the toast's words and its
// "Set Up the Model…" link, and what the walkthrough's context key is told.
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { registerServerCommands } from '../../../src/commands/servers/serverCommands';
import type { ConnectResult } from '../../../src/commands/servers/connectFlow';
import { FlowNotice } from '../../../src/core/flowNotice';
import type { ModelCheck } from '../../../src/state/modelCheck';
import { commands } from '../../shared/vscodeStandIn/standIn';
import { useExtensionState } from '../state/extensionState';

const LLM_KEY = 'sk-llm-connect-secret-93be';

describe('Connect: the model the server has (issue 36)', () => {
  const t = useExtensionState({ legacySettingsRoutes: false });
  let registered: vscode.Disposable[];
  let notice: FlowNotice;
  let reported: ModelCheck[];

  beforeEach(() => {
    notice = new FlowNotice();
    reported = [];
    registered = registerServerCommands({
      connection: t.connection,
      keys: t.secrets.apiKeys,
      log: t.log,
      mcpSecrets: t.secrets.mcpForm,
      llmKeys: t.secrets.llmKeys,
      notice,
      modelReady: { report: (check) => void reported.push(check) },
    });
  });
  afterEach(() => {
    registered.forEach((disposable) => disposable.dispose());
    notice.dispose();
  });

  const connect = () =>
    commands.executeCommand<ConnectResult>('openhands.connect', { url: t.server.url, name: 'Local' });

  it('a fresh server (404 settings): the toast says it has no model yet, with Set Up the Model…', async () => {
    t.server.state.settings = null;
    const result = await connect();
    assert.equal(result.saved, true);
    assert.equal(result.model, 'no-settings');
    assert.equal(
      result.message,
      'Connected to Local: OpenHands 1.11.0, no API key needed. It has no model yet: a conversation would wait for ever.',
    );
    assert.deepEqual(notice.shown, {
      text: result.message,
      link: { label: 'Set Up the Model…', command: 'openhands.setUpModel', args: [] },
    });
    assert.deepEqual(reported, [{ readiness: 'no-settings' }]);
  });

  it('a model with no key: the toast names the model', async () => {
    const settings = t.server.state.settings;
    assert.ok(settings);
    settings.llm_model = 'openai/gpt-5.5';
    settings.llm_api_key = null;
    const result = await connect();
    assert.equal(result.model, 'no-key');
    assert.match(
      result.message,
      /Its model openai\/gpt-5\.5 has no API key: a conversation would wait for ever\.$/,
    );
    assert.equal(notice.shown?.link?.command, 'openhands.setUpModel');
  });

  it('a configured server: a plain "Connected", no link; the key never shows', async () => {
    const settings = t.server.state.settings;
    assert.ok(settings);
    settings.llm_api_key = LLM_KEY;
    const result = await connect();
    assert.equal(result.model, 'ready');
    assert.equal(result.message, 'Connected to Local: OpenHands 1.11.0, no API key needed.');
    assert.deepEqual(notice.shown, { text: result.message });
    assert.doesNotMatch(JSON.stringify([result, notice.shown, reported]), new RegExp(LLM_KEY));
  });

  it('a read that fails says nothing of the model and blocks nothing', async () => {
    t.server.faults.add({ kind: 'status', status: 500, match: { method: 'GET', path: '/api/v1/settings' } });
    const result = await connect();
    assert.equal(result.saved, true);
    assert.equal(result.model, 'unknown');
    assert.equal(result.message, 'Connected to Local: OpenHands 1.11.0, no API key needed.');
    assert.equal(notice.shown?.link, undefined);
  });
});
