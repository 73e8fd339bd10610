import * as vscode from 'vscode';

/** "3 min ago"-style age for tree descriptions; absolute times go in tooltips. */
export function formatAge(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '';
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 60) return vscode.l10n.t('just now');
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return vscode.l10n.t('{0} min ago', minutes);
  const hours = Math.round(minutes / 60);
  if (hours < 48) return vscode.l10n.t('{0} h ago', hours);
  return vscode.l10n.t('{0} d ago', Math.round(hours / 24));
}

export function formatTimestamp(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}
