// `workspace.getConfiguration` over a plain object of settings (`openhands.serverUrl` → value), with the
// defaults package.json contributes, as VS Code reads them; `update` and `set` fire
// `onDidChangeConfiguration` as an edit of settings.json does.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { EventEmitter } from './events';

export enum ConfigurationTarget {
  Global = 1,
  Workspace = 2,
  WorkspaceFolder = 3,
}

/** The defaults `contributes.configuration` declares, by full key. */
function contributedDefaults(): ReadonlyMap<string, unknown> {
  const manifest = JSON.parse(readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as {
    contributes?: { configuration?: { properties?: Record<string, { default?: unknown }> } };
  };
  const properties = manifest.contributes?.configuration?.properties ?? {};
  return new Map(Object.entries(properties).map(([key, property]) => [key, property.default]));
}

const DEFAULTS = contributedDefaults();

class Settings {
  /** The user's settings by full key; what a test or `update` wrote. */
  private values = new Map<string, unknown>();
  private changed = new EventEmitter<vscode.ConfigurationChangeEvent>();
  /** Each `update` the code made, in order. */
  readonly updates: { key: string; value: unknown; target: unknown }[] = [];

  readonly onDidChange = (
    ...args: Parameters<vscode.Event<vscode.ConfigurationChangeEvent>>
  ): vscode.Disposable => this.changed.event(...args);

  /** Sets these settings (full keys; undefined removes one) and tells the code, as an edit of settings.json. */
  set(values: Record<string, unknown>): void {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) this.values.delete(key);
      else this.values.set(key, structuredClone(value));
    }
    this.fire(Object.keys(values));
  }

  /** The user's value of a setting (full key), undefined when unset. */
  value(key: string): unknown {
    return this.values.get(key);
  }

  reset(): void {
    this.values = new Map();
    this.changed.dispose();
    this.changed = new EventEmitter();
    this.updates.length = 0;
  }

  configuration(section = ''): vscode.WorkspaceConfiguration {
    const full = (key: string): string => (section ? `${section}.${key}` : key);
    const read = (key: string): unknown =>
      this.values.has(full(key)) ? structuredClone(this.values.get(full(key))) : DEFAULTS.get(full(key));
    const get = <T>(key: string, defaultValue?: T): T | undefined => {
      const value = read(key);
      return value === undefined ? defaultValue : (value as T);
    };
    return {
      get,
      has: (key: string) => read(key) !== undefined,
      inspect: <T>(key: string) => ({
        key: full(key),
        defaultValue: DEFAULTS.get(full(key)) as T | undefined,
        globalValue: this.values.get(full(key)) as T | undefined,
      }),
      update: (key: string, value: unknown, target?: unknown): Promise<void> => {
        this.updates.push({ key: full(key), value, target });
        this.set({ [full(key)]: value });
        return Promise.resolve();
      },
    };
  }

  private fire(keys: readonly string[]): void {
    this.changed.fire({
      affectsConfiguration: (section: string) =>
        keys.some((key) => key === section || key.startsWith(`${section}.`)),
    });
  }
}

export const settings = new Settings();
