// Test-only extension loaded beside OpenHands in the e2e run (bundled by scripts/vscode/build.ts): it
// does what any installed extension can do, activate OpenHands and read its exports, and records
// what it got for the e2e step.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { PROBE_FILE_ENV, type ProbeRecord } from './record';

const OPENHANDS = 'openhands-community.openhands-vscode';

export async function activate(): Promise<void> {
  const file = process.env[PROBE_FILE_ENV];
  if (!file) return;
  const extension = vscode.extensions.getExtension<unknown>(OPENHANDS);
  const record: ProbeRecord = { found: Boolean(extension), exportsType: 'unread', exportedNames: [] };
  try {
    const exported = extension ? await extension.activate() : undefined;
    record.exportsType = exported === null ? 'null' : typeof exported;
    record.exportedNames = exported && typeof exported === 'object' ? Object.keys(exported) : [];
  } catch (error) {
    record.error = String(error);
  }
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(record));
  fs.renameSync(`${file}.tmp`, file);
}

export function deactivate(): void {}
