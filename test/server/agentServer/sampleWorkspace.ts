// The preset workspace (`POST /__control/agent/conversations/:id/workspace/sample`): a base commit and
// an agent's changes on top, one of each kind a changes view meets: an update, a new file, a deletion,
// a rename (staged, as `git mv` leaves it), a changed binary and a file too large to diff. Tests
// compare against these contents.
import type { Git } from './git/gitCommand';
import { commitPaths, stagePaths, writeWorkspaceFiles, type WorkspaceFile } from './workspaceEdits';

/** 1×1 PNGs (they hold NUL bytes, so git treats them as binary). */
export const SAMPLE_LOGO_BEFORE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
export const SAMPLE_LOGO_AFTER = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

export const SAMPLE_README = '# Sample app\n\nA tiny project the scripted agent works on.\n';
export const SAMPLE_APP_BEFORE =
  "export function greet(name: string): string {\n  return 'Hello ' + name;\n}\n";
export const SAMPLE_APP_AFTER =
  "export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n\nexport const VERSION = '1.1.0';\n";
export const SAMPLE_OLD = 'This file is obsolete; the agent deletes it.\n';
/** Long enough for git's rename detection (moved unchanged). */
export const SAMPLE_MOVED = Array.from(
  { length: 24 },
  (_, index) => `moved line ${String(index + 1).padStart(2, '0')}: content that travels with the file`,
).join('\n');
export const SAMPLE_NOTES = '# Notes\n\n- greet() now uses a template string\n- VERSION added\n';

/** About 1.2 MiB of text (64-byte lines), over the 1 MiB the diff route accepts. */
export const SAMPLE_BIG_LINES = 19_661;
let bigText: string | null = null;
export function sampleBigText(): string {
  bigText ??= Array.from(
    { length: SAMPLE_BIG_LINES },
    (_, index) =>
      `big line ${String(index + 1).padStart(6, '0')}: the quick brown fox jumps`.padEnd(63, '.') + '\n',
  ).join('');
  return bigText;
}

/** The base commit ("Sample base"). */
export function sampleBaseFiles(): Record<string, WorkspaceFile> {
  return {
    'README.md': SAMPLE_README,
    'src/app.ts': SAMPLE_APP_BEFORE,
    'old.txt': SAMPLE_OLD,
    'moved-from.txt': SAMPLE_MOVED,
    'logo.png': { base64: SAMPLE_LOGO_BEFORE.toString('base64') },
  };
}

/** The agent's changes, left uncommitted (only the rename is staged). */
export function sampleAgentFiles(): Record<string, WorkspaceFile> {
  return {
    'src/app.ts': SAMPLE_APP_AFTER,
    'notes/new.md': SAMPLE_NOTES,
    'old.txt': null,
    'moved-from.txt': null,
    'moved-to.txt': SAMPLE_MOVED,
    'logo.png': { base64: SAMPLE_LOGO_AFTER.toString('base64') },
    'big.txt': sampleBigText(),
  };
}

export async function buildSampleWorkspace(git: Git, dir: string): Promise<void> {
  const base = writeWorkspaceFiles(dir, sampleBaseFiles());
  await commitPaths(git, dir, base, 'Sample base', true);
  writeWorkspaceFiles(dir, sampleAgentFiles());
  await stagePaths(git, dir, ['moved-from.txt', 'moved-to.txt']);
}
