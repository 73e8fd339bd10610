/**
 * What both forms' strings share: the words they say alike, the schema the page checks them with when the host sends them in
 * the user's language, and the `{0}` placeholders filled like `vscode.l10n.t` fills them.
 * No vscode import: pages bundle this file.
 */
import * as z from 'zod/mini';
import '../../../zodLocale';

/** What both forms say alike: the page's frame (its server, loading, saving, the toolbar) and the last resort. */
export const FORM_PAGE_STRINGS = {
  serverLabel: 'Server: {0}',
  noServer: 'VS Code is not connected to an OpenHands server yet.',
  configureServer: 'Connect to OpenHands…',
  loading: 'Loading…',
  saving: 'Saving…',
  save: 'Save',
  reload: 'Reload from Server',
  showLog: 'Show Log',
  validationBanner: 'Nothing was saved: fix the highlighted fields.',
  errUnexpected: 'Something went wrong; the OpenHands log has the details.',
} as const;

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
