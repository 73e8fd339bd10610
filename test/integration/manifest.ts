// Typed view of the extension's package.json as VS Code loaded it, so the tests follow whatever the
// manifest contributes instead of a hard-coded list.
import * as vscode from 'vscode';
import { EXTENSION_ID } from './env';

export interface ContributedCommand {
  command: string;
  title?: string;
}

export interface Manifest {
  contributes?: {
    commands?: ContributedCommand[];
    viewsContainers?: Record<string, { id: string; title?: string }[]>;
    views?: Record<string, { id: string; name?: string }[]>;
    configuration?: unknown;
  };
}

export function openHandsExtension(): vscode.Extension<unknown> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  return extension;
}

export function manifest(): Manifest {
  return openHandsExtension().packageJSON as Manifest;
}

export function contributedCommands(): ContributedCommand[] {
  return manifest().contributes?.commands ?? [];
}

export function contributedViewContainerIds(): string[] {
  return Object.values(manifest().contributes?.viewsContainers ?? {}).flatMap((list) =>
    list.map((c) => c.id),
  );
}

export function contributedViewIds(): string[] {
  return Object.values(manifest().contributes?.views ?? {}).flatMap((list) => list.map((v) => v.id));
}
