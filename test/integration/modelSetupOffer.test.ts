// No dead end, no silent hang (issue 36, item 2), in a real VS Code against the test server: Connect to
// a server with no model offers Set Up the Model… in its notice; New Conversation asks first (Start
// Anyway starts, a dismissal loses nothing); a conversation whose model fails says so in its panel and
// its row, and the panel's button asks for the Model page (`openhands.setUpModel`, not registered in
// this branch: the extension's test API counts the asks).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ConnectResult } from '../../src/commands/servers/connectFlow';
import { MODEL_FAILURES } from '../shared/agentEvents';
import { eventually } from '../shared/eventually';
import { closePanels, openLive, panels, quietConversation } from './conversations';
import { testServerUrl } from './env';
import { useFreshExtension } from './extensionApi';
import { agentServer, server } from './serverControl';

type ShowMessage = typeof vscode.window.showWarningMessage;

describe('no dead end, no silent hang: the model (issue 36)', () => {
  const t = useFreshExtension();
  const { window } = vscode;
  const showWarningMessage = window.showWarningMessage;
  const showInputBox = window.showInputBox;
  afterEach(async () => {
    window.showWarningMessage = showWarningMessage;
    window.showInputBox = showInputBox;
    await closePanels(t.api);
  });

  /** The next modal warnings answer so (undefined: dismissed); what they asked is kept. */
  function answerWarnings(
    ...answers: (string | undefined)[]
  ): { message: string; detail?: string; items: string[] }[] {
    const asked: { message: string; detail?: string; items: string[] }[] = [];
    window.showWarningMessage = ((message: string, ...rest: unknown[]) => {
      const [options, ...items] = rest as [vscode.MessageOptions, ...string[]];
      asked.push({ message, detail: options.detail, items });
      return Promise.resolve(answers.shift());
    }) as ShowMessage;
    return asked;
  }

  it('Connect to a fresh OpenHands (no settings): the notice says it has no model yet and links Set Up the Model…', async () => {
    await server.setSettings(null);
    const result = await vscode.commands.executeCommand<ConnectResult>('openhands.connect', {
      url: testServerUrl(),
      name: 'Fresh',
    });
    assert.equal(result.saved, true);
    assert.equal(result.model, 'no-settings');
    assert.match(
      result.message,
      /^Connected to Fresh: OpenHands 1\.11\.0, .*\. It has no model yet: a conversation would wait for ever\.$/,
    );
    assert.deepEqual(t.api.serverNotice.shown, {
      text: result.message,
      link: { label: 'Set Up the Model…', command: 'openhands.setUpModel', args: [] },
    });
    assert.equal(t.api.modelReady.ready, false, 'the walkthrough step is not done');

    // the model set up (as the Model page would), the next Connect is a plain one and the step is done
    await server.setSettings({
      llm_model: 'anthropic/claude-sonnet-4-5',
      llm_api_key: 'sk-ant-integration-key-1',
    });
    const again = await vscode.commands.executeCommand<ConnectResult>('openhands.connect', {
      url: testServerUrl(),
      name: 'Fresh',
    });
    assert.equal(again.model, 'ready');
    assert.equal(t.api.serverNotice.shown?.link, undefined);
    assert.equal(t.api.modelReady.ready, true);
  });

  it('New Conversation on a server with no model asks first: Set Up the Model… asks for the page and keeps the task, Start Anyway starts', async () => {
    await server.setSettings(null);
    const task = { message: 'Fix the failing tests', repository: null, sandboxId: null };
    const before = t.api.store.conversations.length;

    const first = answerWarnings('Set Up the Model…');
    const asked = t.api.modelOffer.asked;
    assert.equal(await vscode.commands.executeCommand('openhands.newConversation', task), undefined);
    assert.equal(first.length, 1);
    assert.deepEqual(first[0]?.items, ['Set Up the Model…', 'Start Anyway']);
    assert.match(first[0]?.detail ?? '', /It has no model yet: a conversation would wait for ever\./);
    assert.equal(t.api.modelOffer.asked, asked + 1, 'the Model page was asked for');

    // nothing lost: the next New Conversation offers the task again (dismissed here)
    let offered: string | undefined;
    window.showInputBox = ((options?: vscode.InputBoxOptions) => {
      offered = options?.value;
      return Promise.resolve(undefined);
    }) as typeof window.showInputBox;
    await vscode.commands.executeCommand('openhands.newConversation');
    assert.equal(offered, 'Fix the failing tests');

    // dismissed at the question: nothing starts, the task is still offered
    answerWarnings(undefined);
    assert.equal(await vscode.commands.executeCommand('openhands.newConversation', task), undefined);
    await t.api.store.refresh();
    assert.equal(t.api.store.conversations.length, before, 'nothing started');

    answerWarnings('Start Anyway');
    const started = await vscode.commands.executeCommand<string | undefined>(
      'openhands.newConversation',
      task,
    );
    assert.ok(started, 'Start Anyway starts');
    await t.api.store.refresh();
    assert.ok(t.api.store.findConversation(started));
  });

  it('a conversation whose model refuses its key: the panel and the row say so in words, the key masked; Set Up the Model… asks for the page', async () => {
    const conversation = quietConversation(t.api);
    await openLive(t.api, conversation.id);
    const failure = MODEL_FAILURES.keyRefused;
    await agentServer.setOptions({
      llm: { kind: 'fail', code: String(failure['code']), detail: String(failure['detail']) },
    });
    // the user asks; the agent's first LLM call fails
    assert.ok(
      panels(t.api).sendFromWebview(conversation.id, { type: 'send', text: 'Fix the tests', resume: false }),
    );
    const shown = await eventually(
      () => panels(t.api).snapshot(conversation.id),
      (snapshot) => snapshot?.header.modelProblem?.kind === 'failed',
      10_000,
    );
    const problem = shown?.header.modelProblem;
    assert.match(problem?.text ?? '', / refused the API key \(401\)\.$/);
    assert.match(
      problem?.text ?? '',
      new RegExp(`^${(shown?.header.model ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `),
    );
    assert.match(problem?.detail ?? '', /Incorrect API key provided: \[redacted\]/);
    assert.doesNotMatch(JSON.stringify(shown), /sk-proj-Ab12|Yz89/);

    // the row says it too, once the list knows the run ended
    await eventually(
      async () => {
        await t.api.store.refresh();
        const node = {
          kind: 'conversation' as const,
          conversation: t.api.store.findConversation(conversation.id) ?? conversation,
        };
        return t.api.conversationsProvider.getTreeItem(node).description;
      },
      (description) => typeof description === 'string' && description.startsWith('model failed'),
      10_000,
    );

    const asked = t.api.modelOffer.asked;
    assert.ok(panels(t.api).sendFromWebview(conversation.id, { type: 'setUpModel' }));
    assert.equal(t.api.modelOffer.asked, asked + 1);
  });
});
