import type { HandoffManifest } from './handoffManifest';

/** How many files the agent's first message names before it says how many more. */
const NAMED_FILES = 20;

const counted = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * What the agent is told it was given, before the user's task: the commits, the edited and the new
 * files, and where they are, so its first step starts from the user's work and says so.
 */
export function handoffMessage(manifest: HandoffManifest, workingCopy: string): string {
  const pieces: string[] = [];
  if (manifest.kind === 'archive') {
    pieces.push(`the files at ${manifest.branch ?? 'a detached HEAD'} (${manifest.head.slice(0, 12)})`);
  } else if (manifest.commitCount > 0) {
    pieces.push(counted(manifest.commitCount, 'commit', 'commits'));
  }
  if (manifest.editedFiles.length > 0) {
    pieces.push(counted(manifest.editedFiles.length, 'edited file', 'edited files'));
  }
  if (manifest.untracked.length > 0) pieces.push(counted(manifest.untracked.length, 'new file', 'new files'));
  const paths = [...manifest.editedFiles, ...manifest.untracked.map((file) => file.path)];
  const named = paths.slice(0, NAMED_FILES).join(', ');
  const more = paths.length > NAMED_FILES ? ` and ${paths.length - NAMED_FILES} more` : '';
  const list = paths.length > 0 ? ` (${named}${more})` : '';
  const what = manifest.kind === 'archive' ? 'my repository' : 'my local state';
  return `I handed you ${what}: ${pieces.join(', ') || 'no change'}${list}. It is in your working copy, ${workingCopy}.`;
}
