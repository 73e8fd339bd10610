import type { RefusedPath } from './patchGuard';

export type ApplyRefusal = 'dirty' | 'conflict' | 'empty' | 'not-a-repository' | 'unsafe';

/** An apply that was not started, the working tree untouched: `paths` says which files stand in the way. */
export class ApplyRefusedError extends Error {
  constructor(
    readonly reason: ApplyRefusal,
    readonly paths: string[] = [],
    folder?: string,
    /** For `unsafe`: each file the checks refused and why (an empty path: the patch as a whole). */
    readonly refusals: readonly RefusedPath[] = [],
  ) {
    super(refusalMessage(reason, paths, folder, refusals));
    this.name = 'ApplyRefusedError';
  }
}

const LISTED_PATHS = 5;

function refusalMessage(
  reason: ApplyRefusal,
  paths: string[],
  folder: string | undefined,
  refusals: readonly RefusedPath[],
): string {
  const listed = paths.slice(0, LISTED_PATHS).join(', ') + (paths.length > LISTED_PATHS ? ', …' : '');
  switch (reason) {
    case 'dirty':
      return `Files the change touches have uncommitted changes: ${listed}.`;
    case 'conflict':
      return `The change conflicts with the local version of: ${listed}.`;
    case 'empty':
      return 'There is nothing to apply: no file of the change is selected.';
    case 'not-a-repository':
      return `${folder ?? 'The folder'} is not in a git work tree.`;
    case 'unsafe':
      return `The change reaches outside the repository, into .git or through a link: ${describeRefusals(refusals)}.`;
  }
}

/** Refusals as one line: `path: why; …`, the first few. */
export function describeRefusals(refusals: readonly RefusedPath[]): string {
  const listed = refusals
    .slice(0, LISTED_PATHS)
    .map((refusal) => (refusal.path ? `${refusal.path}: ${refusal.reason}` : `the patch: ${refusal.reason}`));
  return (
    listed.join('; ') + (refusals.length > LISTED_PATHS ? `; and ${refusals.length - LISTED_PATHS} more` : '')
  );
}
