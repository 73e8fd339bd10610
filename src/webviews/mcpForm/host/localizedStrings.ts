/** The form's strings in the user's language, for the host's messages and the webview. */
import * as vscode from 'vscode';
import { ENGLISH_STRINGS, UiStringsSchema, type UiStringKey, type UiStrings } from '../shared/uiStrings';

export function localizedStrings(): UiStrings {
  const strings: Partial<Record<UiStringKey, string>> = {};
  for (const key of Object.keys(ENGLISH_STRINGS) as UiStringKey[]) {
    strings[key] = vscode.l10n.t(ENGLISH_STRINGS[key]);
  }
  return UiStringsSchema.parse(strings);
}
