// The conversation commands as `services.ts` registers them, over the extension's state objects
// (`useExtensionState`): a fresh feeds, watch and workspace memory before each test, all disposed
// after it. Notifications are off: the watch remembers what it watches without following live feeds.
import type * as vscode from 'vscode';
import {
  registerConversationCommands,
  type ConversationCommandDeps,
} from '../../../src/commands/conversationCommands';
import { MementoManager } from '../../../src/core/mementoManager';
import { forgetAskedWords } from '../../../src/state/askedWords';
import { ConversationFeeds } from '../../../src/state/conversationFeeds';
import { ConversationSteering } from '../../../src/state/conversationSteering';
import { ConversationWatch } from '../../../src/state/conversationWatch';
import { HandoffRecords } from '../../../src/state/handoffRecords';
import { MemoryMemento } from '../../shared/vscodeStandIn/standIn';
import type { ExtensionState } from '../state/extensionState';

/** What a test watches of the window around the commands; each left out does nothing. */
export type CommandSurroundings = Partial<
  Pick<ConversationCommandDeps, 'panels' | 'modelOffer' | 'modelReady'>
>;

export interface ConversationCommands {
  feeds: ConversationFeeds;
  watch: ConversationWatch;
  /** Where New Conversation remembers the profile chosen last, and the hand-offs' records. */
  workspaceState: MemoryMemento;
  /** What each hand-off gave its conversation, as `services.ts` keeps it (in `workspaceState`). */
  handoffRecords: HandoffRecords;
}

/** `surroundings` is read before each test, so it may hand over that test's own records. */
export function useConversationCommands(
  t: ExtensionState,
  surroundings: () => CommandSurroundings = () => ({}),
): ConversationCommands {
  const commands = {} as ConversationCommands;
  let registered: vscode.Disposable[] = [];
  beforeEach(() => {
    const around = surroundings();
    commands.workspaceState = new MemoryMemento();
    commands.handoffRecords = new HandoffRecords(
      commands.workspaceState,
      () => t.connection.config.serverUrl,
    );
    commands.feeds = new ConversationFeeds(t.connection, t.store, t.log);
    commands.watch = new ConversationWatch({
      store: t.store,
      feeds: commands.feeds,
      mementos: new MementoManager(t.memento),
      scope: () => 'off',
      secrets: () => [],
    });
    registered = registerConversationCommands({
      store: t.store,
      connection: t.connection,
      log: t.log,
      reveal: () => Promise.resolve(),
      panels: around.panels ?? {
        show: () => undefined,
        isInView: () => false,
        isOpen: () => false,
        attach: () => undefined,
        close: () => false,
      },
      steering: new ConversationSteering(t.connection, t.store, t.actions, commands.feeds, t.log),
      watch: commands.watch,
      workspaceState: commands.workspaceState,
      handoffRecords: commands.handoffRecords,
      modelOffer: around.modelOffer ?? { open: () => Promise.resolve() },
      modelReady: around.modelReady ?? { report: () => undefined },
    });
  });
  afterEach(() => {
    forgetAskedWords();
    for (const disposable of registered.splice(0)) disposable.dispose();
    commands.watch.dispose();
    commands.feeds.dispose();
  });
  return commands;
}
