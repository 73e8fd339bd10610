/**
 * What both forms' strings share: the schema the page checks them with when the host sends them in
 * the user's language, and the `{0}` placeholders filled like `vscode.l10n.t` fills them.
 * No vscode import: pages bundle this file.
 */
import * as z from 'zod/mini';
import '../../../zodLocale';

/** A form's strings, one for each key of its English ones, none longer than a page shows. */
export function uiStringsSchema<Key extends string>(english: Readonly<Record<Key, string>>) {
  const keys = Object.keys(english) as [Key, ...Key[]];
  return z.record(z.enum(keys), z.string().check(z.maxLength(1000)));
}

/** Fills `{0}`, `{1}`… like `vscode.l10n.t` does. */
export function format(template: string, ...args: (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (whole, index: string) => {
    const value = args[Number(index)];
    return value === undefined ? whole : String(value);
  });
}
