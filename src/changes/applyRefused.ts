export type ApplyRefusal = 'dirty' | 'conflict' | 'empty' | 'not-a-repository';

/** An apply that was not started, the working tree untouched: `paths` says which files stand in the way. */
export class ApplyRefusedError extends Error {
  constructor(
    readonly reason: ApplyRefusal,
    readonly paths: string[] = [],
    folder?: string,
  ) {
    super(refusalMessage(reason, paths, folder));
    this.name = 'ApplyRefusedError';
  }
}

const LISTED_PATHS = 5;

function refusalMessage(reason: ApplyRefusal, paths: string[], folder: string | undefined): string {
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
  }
}
