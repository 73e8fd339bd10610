/** The letters and colours of the Source Control view on the agent's changed files (A, M, D, R). */
import * as vscode from 'vscode';
import type { GitChangeStatus } from '../api';
import { CHANGE_SCHEME, parseChangeUri } from './changeDocuments';
import { STATUS_LABEL } from './changeTreeItems';

const STYLE: Record<GitChangeStatus, { badge: string; color: string }> = {
  ADDED: { badge: 'A', color: 'gitDecoration.addedResourceForeground' },
  UPDATED: { badge: 'M', color: 'gitDecoration.modifiedResourceForeground' },
  DELETED: { badge: 'D', color: 'gitDecoration.deletedResourceForeground' },
  MOVED: { badge: 'R', color: 'gitDecoration.renamedResourceForeground' },
};

export function registerChangeDecorations(): vscode.Disposable {
  return vscode.window.registerFileDecorationProvider({
    provideFileDecoration(uri) {
      if (uri.scheme !== CHANGE_SCHEME) return undefined;
      const ref = parseChangeUri(uri);
      if (!ref) return undefined;
      const style = STYLE[ref.change.status];
      return new vscode.FileDecoration(
        style.badge,
        STATUS_LABEL[ref.change.status](),
        new vscode.ThemeColor(style.color),
      );
    },
  });
}
