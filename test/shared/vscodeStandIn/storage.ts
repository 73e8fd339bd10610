// Secret Storage and a Memento (globalState) in memory, as VS Code keeps them: a Memento holds JSON (what
// it returns is a copy, `undefined` removes a key), Secret Storage strings, and tells of each change.
import type * as vscode from 'vscode';
import { EventEmitter } from './events';

export class MemorySecretStorage implements vscode.SecretStorage {
  private readonly values = new Map<string, string>();
  private readonly changed = new EventEmitter<vscode.SecretStorageChangeEvent>();
  readonly onDidChange = this.changed.event;

  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.values.get(key));
  }

  keys(): Promise<string[]> {
    return Promise.resolve([...this.values.keys()]);
  }

  store(key: string, value: string): Promise<void> {
    if (typeof value !== 'string') return Promise.reject(new Error('Secret Storage holds strings only'));
    this.values.set(key, value);
    this.changed.fire({ key });
    return Promise.resolve();
  }

  delete(key: string): Promise<void> {
    this.values.delete(key);
    this.changed.fire({ key });
    return Promise.resolve();
  }
}

export class MemoryMemento implements vscode.Memento {
  private readonly values = new Map<string, string>();

  keys(): readonly string[] {
    return [...this.values.keys()];
  }

  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  get<T>(key: string, defaultValue?: T): T | undefined {
    const stored = this.values.get(key);
    return stored === undefined ? defaultValue : (JSON.parse(stored) as T);
  }

  update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, JSON.stringify(value));
    return Promise.resolve();
  }

  /** Everything stored, as the JSON text VS Code writes to disk. */
  dump(): string {
    return JSON.stringify(Object.fromEntries([...this.values].map(([key, text]) => [key, JSON.parse(text)])));
  }

  setKeysForSync(): void {}
}
