/**
 * The logic of Apply's question about files that can run code (no VS Code, so it is unit tested):
 * which of the files about to be applied it names, which answers it offers, and what each answer
 * makes of the apply. The dialog itself is `codeRunningStep.ts`.
 */
import type { CodeRunningFile } from '../../api';

/** Apply every file; apply the others and leave those out; open their diffs and apply nothing. */
export type CodeRunningAnswer = 'all' | 'without' | 'review';

/** What the apply does next. */
export type CodeRunningStep =
  /** `leftOut`: the paths not to apply (none for `all`); `codeRunning`: those applied that can run code. */
  | { kind: 'apply'; leftOut: string[]; codeRunning: CodeRunningFile[] }
  | { kind: 'review'; files: CodeRunningFile[] }
  /** Only files that can run code were to be applied, and the answer was to leave them out. */
  | { kind: 'nothing-left'; files: CodeRunningFile[] }
  | { kind: 'cancel' };

/**
 * The answers the question offers, the default first (a modal's first button is the one Enter
 * presses: the one that runs nothing); "without them" only when other files are left to apply.
 */
export function codeRunningAnswers(
  marked: readonly CodeRunningFile[],
  applicable: number,
): CodeRunningAnswer[] {
  return marked.length < applicable ? ['review', 'without', 'all'] : ['review', 'all'];
}

/** What `answer` (undefined: the dialog was dismissed) makes of an apply of `applicable` files. */
export function codeRunningStep(
  answer: CodeRunningAnswer | undefined,
  marked: readonly CodeRunningFile[],
  applicable: number,
): CodeRunningStep {
  if (marked.length === 0) return { kind: 'apply', leftOut: [], codeRunning: [] };
  switch (answer) {
    case 'all':
      return { kind: 'apply', leftOut: [], codeRunning: [...marked] };
    case 'without':
      return marked.length < applicable
        ? { kind: 'apply', leftOut: marked.map((file) => file.path), codeRunning: [] }
        : { kind: 'nothing-left', files: [...marked] };
    case 'review':
      return { kind: 'review', files: [...marked] };
    case undefined:
      return { kind: 'cancel' };
  }
}
