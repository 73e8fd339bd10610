// The command registry: `registerCommand` as VS Code's (one handler per id), `executeCommand` runs it,
// and `setContext` is kept as the context keys the menus and welcome views read.
import type * as vscode from 'vscode';
import { Disposable } from './events';

type Handler = (...args: unknown[]) => unknown;

class Commands {
  private readonly handlers = new Map<string, Handler>();
  /** Context keys by name, as the last `setContext` set them. */
  readonly context = new Map<string, unknown>();
  /** Every `executeCommand`, in order, with its arguments (`setContext` too). */
  readonly executed: { id: string; args: unknown[] }[] = [];

  registerCommand = (id: string, handler: Handler, thisArg?: unknown): vscode.Disposable => {
    if (this.handlers.has(id)) throw new Error(`command '${id}' already exists`);
    const bound: Handler = (...args) => handler.apply(thisArg, args);
    this.handlers.set(id, bound);
    return new Disposable(() => {
      if (this.handlers.get(id) === bound) this.handlers.delete(id);
    });
  };

  executeCommand = async <T>(id: string, ...args: unknown[]): Promise<T> => {
    this.executed.push({ id, args });
    if (id === 'setContext') {
      this.context.set(String(args[0]), args[1]);
      return undefined as T;
    }
    const handler = this.handlers.get(id);
    if (!handler) throw new Error(`command '${id}' not found`);
    return (await handler(...args)) as T;
  };

  getCommands = (): Promise<string[]> => Promise.resolve([...this.handlers.keys()]);

  reset(): void {
    this.handlers.clear();
    this.context.clear();
    this.executed.length = 0;
  }
}

export const commands = new Commands();
