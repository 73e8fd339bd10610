// Apply on a conversation started from local state, end to end with real git: New Conversation hands the
// user's edits and a ticked file to the agent-server double's sandbox, the "agent" edits there, and Apply
// brings back only its edit, onto the user's tree as it was handed over. The base question is asked only
// when the user's files moved since, not when HEAD alone moved (the handed edits committed).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { applyChanges, type ApplyOutcome } from '../../../src/commands/changes/applyFlow';
import { registerConversationCommands } from '../../../src/commands/conversationCommands';
import { MementoManager } from '../../../src/core/mementoManager';
import { forgetAskedWords } from '../../../src/state/askedWords';
import { ConversationChanges } from '../../../src/state/conversationChanges';
import { ConversationFeeds } from '../../../src/state/conversationFeeds';
import { ConversationSteering } from '../../../src/state/conversationSteering';
import { ConversationWatch } from '../../../src/state/conversationWatch';
import { HandoffRecords, type HandoffRecord } from '../../../src/state/handoffRecords';
import { commands, MemoryMemento, prompts } from '../../shared/vscodeStandIn/standIn';
import { Uri, workspace } from '../../shared/vscodeStandIn/index';
import { useExtensionState } from '../state/extensionState';
import { commitAll, git, write } from '../changes/scratchRepo';

const HANDED_APP = 'one\ntwo, edited\nthree\nfour\nfive\nsix\n';
const AGENT_APP = 'one\ntwo, edited\nthree\nfour\nfive\nsix (agent)\n';

describe('Apply on a conversation started from local state', function () {
  this.timeout(60_000);
  const t = useExtensionState({ seed: { sandboxes: 2, conversations: 2, seed: 11 } });
  let tmp: string;
  let repo: string;
  let registered: vscode.Disposable[];
  let feeds: ConversationFeeds;
  let watch: ConversationWatch;
  let changes: ConversationChanges;
  let records: HandoffRecords;
  const folders = workspace as { workspaceFolders: unknown };

  beforeEach(() => {
    tmp = mkdtempSync(join(process.env['TMPDIR'] ?? '/tmp', 'openhands-takeback-'));
    repo = join(tmp, 'my app');
    mkdirSync(repo);
    git(repo, ['init', '-q', '-b', 'main']);
    write(repo, 'app.txt', 'one\ntwo\nthree\nfour\nfive\nsix\n');
    write(repo, 'other.txt', 'other\n');
    commitAll(repo, 'base');
    // the user's uncommitted work, handed over: an edit and a new file
    write(repo, 'app.txt', HANDED_APP);
    write(repo, 'new.txt', 'new file\n');
    folders.workspaceFolders = [{ uri: Uri.file(repo), name: 'my app', index: 0 }];
    const workspaceState = new MemoryMemento();
    records = new HandoffRecords(workspaceState, () => t.connection.config.serverUrl);
    feeds = new ConversationFeeds(t.connection, t.store, t.log);
    watch = new ConversationWatch({
      store: t.store,
      feeds,
      mementos: new MementoManager(t.memento),
      scope: () => 'off',
      secrets: () => [],
    });
    changes = new ConversationChanges({
      store: t.store,
      feeds,
      log: t.log,
      isOffline: () => false,
      handoffs: records,
    });
    registered = registerConversationCommands({
      store: t.store,
      connection: t.connection,
      log: t.log,
      reveal: () => Promise.resolve(),
      panels: {
        show: () => undefined,
        isInView: () => false,
        isOpen: () => false,
        attach: () => undefined,
        close: () => false,
      },
      steering: new ConversationSteering(t.connection, t.store, t.actions, feeds, t.log),
      watch,
      workspaceState,
      handoffRecords: records,
      modelOffer: { open: () => Promise.resolve() },
      modelReady: { report: () => undefined },
    });
  });
  afterEach(() => {
    folders.workspaceFolders = undefined;
    forgetAskedWords();
    registered.forEach((disposable) => disposable.dispose());
    changes.dispose();
    watch.dispose();
    feeds.dispose();
    rmSync(tmp, { recursive: true, force: true });
  });

  /** New Conversation with "Bring my repository" and new.txt ticked; then the agent's edit in the sandbox. */
  async function handOverThenAgentEdits(): Promise<{ id: string; record: HandoffRecord }> {
    prompts.answer('inputBox', 'Finish it');
    prompts.answer('inputBox', '');
    prompts.answer('quickPick', '$(add) New sandbox');
    prompts.answer('quickPick', 'Bring my repository');
    prompts.answer('quickPick', 'new.txt');
    prompts.answer('information', undefined);
    const id = await commands.executeCommand<string | undefined>('openhands.newConversation');
    assert.ok(id, 'a conversation started');
    const record = records.get(id);
    assert.ok(record, 'the hand-off is kept');
    writeFileSync(join(record.workingCopy, 'app.txt'), AGENT_APP);
    writeFileSync(join(record.workingCopy, 'agent.txt'), 'written by the agent\n');
    prompts.reset();
    return { id, record };
  }

  async function apply(id: string): Promise<ApplyOutcome> {
    const conversation = t.store.findConversation(id);
    assert.ok(conversation);
    return applyChanges({ changes, log: t.log }, conversation, { conversationId: id, folder: repo });
  }

  const warnings = () => prompts.of('warning').map((asked) => asked.message);

  it('the user’s files unmoved: no question, and only the agent’s edit comes back onto the handed tree', async () => {
    const { id } = await handOverThenAgentEdits();
    const listed = await changes.refresh(id);
    assert.equal(listed.kind, 'ready');
    assert.deepEqual(
      listed.kind === 'ready' ? listed.set.files.map((file) => file.path).sort() : [],
      ['agent.txt', 'app.txt'],
      'the Changes list holds the agent’s files only (not new.txt, which the user handed over)',
    );
    const outcome = await apply(id);
    assert.equal(outcome.kind, 'applied', JSON.stringify(outcome));
    assert.deepEqual(warnings(), [], 'no question at all (no base question, no stash of the handed edit)');
    assert.equal(readFileSync(join(repo, 'app.txt'), 'utf8'), AGENT_APP);
    assert.equal(readFileSync(join(repo, 'agent.txt'), 'utf8'), 'written by the agent\n');
    assert.equal(readFileSync(join(repo, 'new.txt'), 'utf8'), 'new file\n', 'the handed file as it was');
    assert.equal(git(repo, ['stash', 'list']).toString(), '', 'nothing stashed');
  });

  it('HEAD moved but not the files (the handed edits committed): still no question', async () => {
    const { id } = await handOverThenAgentEdits();
    git(repo, ['add', 'app.txt', 'new.txt']);
    git(repo, ['-c', 'user.name=u', '-c', 'user.email=u@example.com', 'commit', '-q', '-m', 'mine']);
    const outcome = await apply(id);
    assert.equal(outcome.kind, 'applied', JSON.stringify(outcome));
    assert.deepEqual(warnings(), []);
    assert.equal(readFileSync(join(repo, 'app.txt'), 'utf8'), AGENT_APP);
  });

  it('the user’s files moved since: asked once, in words about the hand-off, and the agent’s edit merged', async () => {
    const { id } = await handOverThenAgentEdits();
    write(repo, 'other.txt', 'other, changed since\n');
    prompts.answer('warning', 'Apply Anyway');
    const outcome = await apply(id);
    assert.equal(outcome.kind, 'applied', JSON.stringify(outcome));
    assert.deepEqual(warnings(), ['Your files changed since you handed them to the agent.']);
    assert.equal(readFileSync(join(repo, 'app.txt'), 'utf8'), AGENT_APP);
    assert.equal(readFileSync(join(repo, 'other.txt'), 'utf8'), 'other, changed since\n');
  });

  it('a sandbox that lost what it was handed (made anew): Apply says so, in words, and changes nothing', async () => {
    const { id, record } = await handOverThenAgentEdits();
    rmSync(join(record.workingCopy, '.git'), { recursive: true, force: true });
    git(record.workingCopy, ['init', '-q']);
    const outcome = await apply(id);
    assert.equal(outcome.kind, 'failed');
    assert.match(
      outcome.kind === 'failed' ? outcome.message : '',
      /The sandbox no longer holds the work you handed to this conversation \(.*\), so the agent’s changes cannot be told apart from yours\./,
    );
    assert.equal(readFileSync(join(repo, 'app.txt'), 'utf8'), HANDED_APP);
  });

  it('moved, and the user says no: nothing applied', async () => {
    const { id } = await handOverThenAgentEdits();
    write(repo, 'app.txt', `zero\n${HANDED_APP}`);
    prompts.answer('warning', undefined);
    const outcome = await apply(id);
    assert.equal(outcome.kind, 'cancelled');
    assert.equal(warnings().length, 1);
    assert.equal(readFileSync(join(repo, 'app.txt'), 'utf8'), `zero\n${HANDED_APP}`);
  });
});
