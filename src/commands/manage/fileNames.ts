/**
 * A file name made from what a server or an agent wrote (a conversation's title, a picture's name):
 * one path segment that every file system takes, never `..`, a separator, a device name or a control
 * character. No vscode import.
 */

/** Long enough to recognise the title; short enough for any file system with a suffix added. */
const MAX_NAME_CHARS = 80;
/** Names Windows reserves in any folder, with any extension. */
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

export function safeFileName(text: string | null | undefined, fallback: string): string {
  const cleaned = (text ?? '')
    .normalize('NFC')
    // controls (C0, DEL, C1) and bidi overrides, then separators and what Windows refuses
    .replace(/\p{Cc}|[\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, ' ')
    .replace(/[\\/:*?"<>|]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    // a name that is only dots (`..`) or ends in a dot or space is refused or misread somewhere
    .replace(/^[.\s]+|[.\s]+$/g, '');
  const cut = [...cleaned].slice(0, MAX_NAME_CHARS).join('').trim();
  if (!cut || RESERVED.test(cut)) return fallback;
  return cut;
}
