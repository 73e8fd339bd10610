/** A form's strings in the user's language, for the host's messages and the page. */
import * as vscode from 'vscode';
import type * as z from 'zod/mini';

/** Each English string through `vscode.l10n.t`, checked against the form's schema of strings. */
export function localizedStrings<Key extends string>(
  english: Readonly<Record<Key, string>>,
  schema: z.ZodMiniType<Record<Key, string>>,
): Record<Key, string> {
  const strings: Partial<Record<Key, string>> = {};
  for (const key of Object.keys(english) as Key[]) strings[key] = vscode.l10n.t(english[key]);
  return schema.parse(strings);
}
