// The `vscode` module the extension's logic sees under mocha (register.ts points the bare id `vscode`
// here; `@types/vscode` stays the type source and the real VS Code tests keep the real module). It
// holds only what the code under unit test uses: a test that reaches further fails on a missing member.
import { commands } from './commands';
import { settings } from './settings';

export { CancellationTokenSource, Disposable, EventEmitter } from './events';
export { Uri } from './uri';
export { MarkdownString, ThemeColor, ThemeIcon, TreeItem, TreeItemCollapsibleState } from './treeItems';
export { ProgressLocation, StatusBarAlignment, window } from './window';
export { ConfigurationTarget } from './settings';
export { env } from './env';
export { l10n } from './l10n';

export enum QuickPickItemKind {
  Separator = -1,
  Default = 0,
}

export const workspace = {
  getConfiguration: (section?: string) => settings.configuration(section),
  onDidChangeConfiguration: settings.onDidChange,
  workspaceFolders: undefined,
  isTrusted: true,
};

/**
 * No other extension is installed unless a test installs one (`extensions.installed`, by id): the
 * built-in git extension's absence prefills nothing; a test that needs its repository puts an object
 * with `isActive` and `exports` there, and takes it away after.
 */
export const extensions = {
  installed: new Map<string, { isActive: boolean; exports: unknown; activate(): Promise<unknown> }>(),
  getExtension(id: string) {
    return this.installed.get(id);
  },
};

const { registerCommand, executeCommand, getCommands } = commands;
const commandsApi = { registerCommand, executeCommand, getCommands };
export { commandsApi as commands };
