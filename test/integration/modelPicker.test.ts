// Choosing the model in a real VS Code against the test server: New Conversation's model step with two
// saved profiles sends the one chosen (switch_profile before the first message), and a running
// conversation's header picker switches it, the header then naming the new model and the transcript
// marking the switch. The quick picks are VS Code's own, driven with the workbench's commands.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { eventually } from '../shared/eventually';
import { closePanels, openLive, panels, quietConversation } from './conversations';
import { useFreshExtension } from './extensionApi';
import { agentServer, server } from './serverControl';

type PickItem = vscode.QuickPickItem;
const FAST_MODEL = 'openai/gpt-4o-mini';
/** The seeded settings' model, which `steady` saves. */
const STEADY_MODEL = 'anthropic/claude-sonnet-4-5-20250929';
const FAST_KEY = 'sk-fast-profile-integration-5e0b';

describe('choosing the model: New Conversation’s step and the panel’s picker', () => {
  const t = useFreshExtension();
  afterEach(() => closePanels(t.api));

  /** `steady` (the settings' model, active) and `fast` (another model, with its own key). */
  async function twoProfiles(): Promise<void> {
    const setup = t.api.connection.requireClient().modelSetup;
    await setup.saveProfile('steady');
    await setup.activateProfile('steady');
    await setup.saveProfile('fast', { model: FAST_MODEL, apiKey: FAST_KEY });
  }

  /**
   * Runs `body` with VS Code's real quick picks recorded on their way (the user still sees them);
   * `active` is the item the window reports focused, so a key is sent only once the items show.
   */
  async function recordingPicks<T>(
    body: (shown: { picks: PickItem[][]; titles: string[]; active?: PickItem }) => Promise<T>,
  ): Promise<T> {
    const window = vscode.window as {
      showQuickPick: (items: readonly PickItem[], options?: vscode.QuickPickOptions) => Thenable<unknown>;
    };
    const { showQuickPick } = window;
    const shown: { picks: PickItem[][]; titles: string[]; active?: PickItem } = { picks: [], titles: [] };
    window.showQuickPick = (items, options) => {
      shown.picks.push([...items]);
      shown.titles.push(options?.title ?? '');
      return showQuickPick(items, {
        ...options,
        onDidSelectItem: (item) => {
          if (typeof item !== 'string') shown.active = item;
          return options?.onDidSelectItem?.(item);
        },
      });
    };
    try {
      return await body(shown);
    } finally {
      window.showQuickPick = showQuickPick;
    }
  }

  /** Down until `label` is focused, then Enter, as a user would. */
  async function choose(shown: { active?: PickItem }, label: (item: PickItem) => boolean): Promise<void> {
    await eventually(
      () => shown.active,
      (focused) => focused !== undefined,
      { description: 'the quick pick shows its items' },
    );
    for (let step = 0; step < 5 && !(shown.active && label(shown.active)); step++) {
      const before = shown.active;
      await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
      await eventually(
        () => shown.active,
        (focused) => focused !== before,
        { description: 'the next item focused' },
      );
    }
    assert.ok(shown.active && label(shown.active), 'the item to choose is focused');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  }

  it('New Conversation with two profiles offers them after the task and starts on the one chosen', async () => {
    await twoProfiles();
    await server.clearRequests();
    const id = await recordingPicks(async (shown) => {
      const starting = vscode.commands.executeCommand<string | undefined>('openhands.newConversation', {
        message: 'Say which model you are',
        repository: null,
        sandboxId: null,
      });
      await eventually(
        () => shown.picks.length,
        (count) => count === 1,
        { description: 'the model step' },
      );
      assert.equal(shown.titles[0], 'New Conversation: model');
      assert.deepEqual(
        shown.picks[0]?.map((item) => [item.label, item.description]),
        [
          ['steady', `${STEADY_MODEL} · active`],
          ['fast', FAST_MODEL],
        ],
      );
      await choose(shown, (item) => item.label === 'fast');
      return starting;
    });
    assert.ok(id, 'the conversation started');
    const hex = id.replace(/-/g, '');
    const requests = await server.requests();
    const switches = requests.filter((r) => r.path.endsWith('/switch_profile'));
    assert.deepEqual(
      switches.map((r) => [r.path, r.body]),
      [[`/api/v1/app-conversations/${hex}/switch_profile`, { profile_name: 'fast' }]],
    );
    const events = (await agentServer.events(id)) as { kind: string; key?: string; source?: string }[];
    const switchedAt = events.findIndex(
      (e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'agent',
    );
    const askedAt = events.findIndex((e) => e.kind === 'MessageEvent' && e.source === 'user');
    assert.ok(switchedAt >= 0 && askedAt > switchedAt, 'switched before the first message reached the agent');
  });

  it('the panel’s model picker switches a running conversation; the header and the transcript follow', async () => {
    await twoProfiles();
    const conversation = quietConversation(t.api);
    const opened = await openLive(t.api, conversation.id);
    // the seeded conversation runs on a model of its own: no profile's, so none is checked
    const before = opened?.header.model;
    assert.ok(before && before !== FAST_MODEL && before !== STEADY_MODEL, `runs on ${before}`);
    await server.clearRequests();
    await recordingPicks(async (shown) => {
      assert.equal(panels(t.api).sendFromWebview(conversation.id, { type: 'switchModel', id: 1 }), true);
      await eventually(
        () => shown.picks.length,
        (count) => count === 1,
        { description: 'the model picker' },
      );
      assert.equal(shown.titles[0], 'Switch the Conversation’s Model');
      assert.deepEqual(
        shown.picks[0]?.map((item) => [item.label, item.description]),
        [
          ['$(blank) steady', STEADY_MODEL],
          ['$(blank) fast', FAST_MODEL],
        ],
      );
      await choose(shown, (item) => item.label.endsWith('fast'));
    });
    const snapshot = await eventually(
      () => panels(t.api).snapshot(conversation.id),
      (shown) => shown?.header.model === FAST_MODEL && shown.header.controls.busy === null,
      { description: 'the header names the new model' },
    );
    const marks = (snapshot?.rows ?? []).filter(
      (row) => row.kind === 'notice' && row.title === `Model switched to ${FAST_MODEL}`,
    );
    assert.equal(marks.length, 1, 'the transcript marks the switch');
    const switches = (await server.requests()).filter((r) => r.path.endsWith('/switch_profile'));
    assert.deepEqual(
      switches.map((r) => r.body),
      [{ profile_name: 'fast' }],
    );
    assert.ok(!JSON.stringify(snapshot).includes(FAST_KEY));
  });
});
