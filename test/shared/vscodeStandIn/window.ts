// `vscode.window` for the extension's logic: prompts (prompts.ts), progress, the status bar item, the log
// channel and tree views, each recording what the code did to it. Every member is a plain function, as
// the code may call one unbound (`const show = cond ? window.showWarningMessage : …`).
import type * as vscode from 'vscode';
import { CancellationTokenSource, EventEmitter } from './events';
import { messagePrompt, showInputBox, showQuickPick, showSaveDialog } from './prompts';
import type { ThemeColor } from './treeItems';

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

/** A status bar item; `writes` counts assignments, each of which VS Code sends to the window. */
export class StandInStatusBarItem {
  name: string | undefined;
  visible = false;
  disposed = false;
  writes = 0;
  private values: {
    text: string;
    tooltip: string | vscode.MarkdownString | undefined;
    command: string | vscode.Command | undefined;
    backgroundColor: ThemeColor | undefined;
  } = { text: '', tooltip: undefined, command: undefined, backgroundColor: undefined };

  constructor(
    readonly id: string,
    readonly alignment: StatusBarAlignment,
    readonly priority: number | undefined,
  ) {}

  get text(): string {
    return this.values.text;
  }
  set text(value: string) {
    this.write({ text: value });
  }
  get tooltip(): string | vscode.MarkdownString | undefined {
    return this.values.tooltip;
  }
  set tooltip(value: string | vscode.MarkdownString | undefined) {
    this.write({ tooltip: value });
  }
  get command(): string | vscode.Command | undefined {
    return this.values.command;
  }
  set command(value: string | vscode.Command | undefined) {
    this.write({ command: value });
  }
  get backgroundColor(): ThemeColor | undefined {
    return this.values.backgroundColor;
  }
  set backgroundColor(value: ThemeColor | undefined) {
    this.write({ backgroundColor: value });
  }

  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  dispose(): void {
    this.disposed = true;
    this.visible = false;
  }

  private write(change: Partial<StandInStatusBarItem['values']>): void {
    this.writes++;
    this.values = { ...this.values, ...change };
  }
}

/** A log output channel; `lines` holds each entry as `level: text`. */
export class StandInLogChannel {
  readonly lines: string[] = [];
  readonly logLevel = 2;
  readonly onDidChangeLogLevel = new EventEmitter<number>().event;
  shown = 0;

  constructor(readonly name: string) {}

  trace = (message: string): void => void this.lines.push(`trace: ${message}`);
  debug = (message: string): void => void this.lines.push(`debug: ${message}`);
  info = (message: string): void => void this.lines.push(`info: ${message}`);
  warn = (message: string): void => void this.lines.push(`warn: ${message}`);
  error = (message: string | Error): void => void this.lines.push(`error: ${String(message)}`);
  append = (value: string): void => void this.lines.push(value);
  appendLine = (value: string): void => void this.lines.push(value);
  replace = (value: string): void => void this.lines.splice(0, this.lines.length, value);
  clear = (): void => void (this.lines.length = 0);
  show = (): void => void this.shown++;
  hide = (): void => undefined;
  dispose = (): void => undefined;
}

/** A tree view's chrome; `writes` counts each property the code set, as each is a message to the window. */
export class StandInTreeView<T> {
  readonly writes: Record<'message' | 'description' | 'title' | 'badge', number> = {
    message: 0,
    description: 0,
    title: 0,
    badge: 0,
  };
  readonly selection: readonly T[] = [];
  readonly visible = true;
  readonly onDidExpandElement = new EventEmitter<vscode.TreeViewExpansionEvent<T>>().event;
  readonly onDidCollapseElement = new EventEmitter<vscode.TreeViewExpansionEvent<T>>().event;
  readonly onDidChangeSelection = new EventEmitter<vscode.TreeViewSelectionChangeEvent<T>>().event;
  readonly onDidChangeVisibility = new EventEmitter<vscode.TreeViewVisibilityChangeEvent>().event;
  readonly onDidChangeCheckboxState = new EventEmitter<vscode.TreeCheckboxChangeEvent<T>>().event;
  private values: {
    message: string | undefined;
    description: string | undefined;
    title: string | undefined;
    badge: vscode.ViewBadge | undefined;
  } = { message: undefined, description: undefined, title: undefined, badge: undefined };

  constructor(readonly id: string) {}

  get message(): string | undefined {
    return this.values.message;
  }
  set message(value: string | undefined) {
    this.writes.message++;
    this.values.message = value;
  }
  get description(): string | undefined {
    return this.values.description;
  }
  set description(value: string | undefined) {
    this.writes.description++;
    this.values.description = value;
  }
  get title(): string | undefined {
    return this.values.title;
  }
  set title(value: string | undefined) {
    this.writes.title++;
    this.values.title = value;
  }
  get badge(): vscode.ViewBadge | undefined {
    return this.values.badge;
  }
  set badge(value: vscode.ViewBadge | undefined) {
    this.writes.badge++;
    this.values.badge = value;
  }

  reveal(): Promise<void> {
    return Promise.resolve();
  }
  dispose(): void {}
}

/** One `withProgress` call: where, its title, what it reported, and its token's source (to cancel it). */
export interface ProgressRun {
  location: vscode.ProgressOptions['location'];
  title: string | undefined;
  cancellable: boolean;
  reports: { message?: string; increment?: number }[];
  cancellation: CancellationTokenSource;
  /** The task settled: VS Code takes the notification away. */
  ended: boolean;
}

export const windowRecord = {
  statusBarItems: [] as StandInStatusBarItem[],
  logChannels: [] as StandInLogChannel[],
  treeViews: [] as StandInTreeView<unknown>[],
  progress: [] as ProgressRun[],
  state: { focused: true, active: true },
  windowStateChanged: new EventEmitter<vscode.WindowState>(),
};

export function resetWindow(): void {
  windowRecord.statusBarItems.length = 0;
  windowRecord.logChannels.length = 0;
  windowRecord.treeViews.length = 0;
  windowRecord.progress.length = 0;
  windowRecord.state = { focused: true, active: true };
  windowRecord.windowStateChanged.dispose();
  windowRecord.windowStateChanged = new EventEmitter<vscode.WindowState>();
}

export const window = {
  showInformationMessage: messagePrompt('information'),
  showWarningMessage: messagePrompt('warning'),
  showErrorMessage: messagePrompt('error'),
  showQuickPick,
  showInputBox,
  showSaveDialog,
  activeTextEditor: undefined,
  get state(): vscode.WindowState {
    return windowRecord.state;
  },
  onDidChangeWindowState: (...args: Parameters<vscode.Event<vscode.WindowState>>): vscode.Disposable =>
    windowRecord.windowStateChanged.event(...args),
  withProgress<R>(
    options: vscode.ProgressOptions,
    task: (
      progress: vscode.Progress<{ message?: string; increment?: number }>,
      token: vscode.CancellationToken,
    ) => Thenable<R>,
  ): Thenable<R> {
    const run: ProgressRun = {
      location: options.location,
      title: options.title,
      cancellable: options.cancellable === true,
      reports: [],
      cancellation: new CancellationTokenSource(),
      ended: false,
    };
    windowRecord.progress.push(run);
    const done = task({ report: (value) => void run.reports.push(value) }, run.cancellation.token);
    const end = () => {
      run.ended = true;
    };
    Promise.resolve(done).then(end, end);
    return done;
  },
  createStatusBarItem(
    id: string,
    alignment = StatusBarAlignment.Left,
    priority?: number,
  ): StandInStatusBarItem {
    const item = new StandInStatusBarItem(id, alignment, priority);
    windowRecord.statusBarItems.push(item);
    return item;
  },
  createOutputChannel(name: string): StandInLogChannel {
    const channel = new StandInLogChannel(name);
    windowRecord.logChannels.push(channel);
    return channel;
  },
  createTreeView<T>(id: string): StandInTreeView<T> {
    const view = new StandInTreeView<T>(id);
    windowRecord.treeViews.push(view);
    return view;
  },
};
