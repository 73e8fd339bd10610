/** The code a conversation is about: a file, and the selected lines when there is a selection. */
export interface EditorContext {
  /** Workspace-relative path with `/` separators (what the agent sees in its clone of the repository). */
  path: string;
  /** VS Code language id, used as the fence's info string. */
  languageId: string;
  /** 1-based, inclusive; only with `text`. */
  startLine?: number;
  endLine?: number;
  /** The selected text; absent for "this file". */
  text?: string;
}

/** A selection larger than this is refused: the first message is not the place for whole files. */
export const MAX_CONTEXT_CHARS = 20_000;

/** `src/app.ts:12-30`, `src/app.ts:7`, or `src/app.ts` for a whole file. */
export function contextLabel(context: EditorContext): string {
  if (context.text === undefined || context.startLine === undefined) return context.path;
  const end = context.endLine ?? context.startLine;
  return end > context.startLine
    ? `${context.path}:${context.startLine}-${end}`
    : `${context.path}:${context.startLine}`;
}

/** The first message: the user's instruction, then where the code is and the code itself, fenced. */
export function messageWithContext(instruction: string, context: EditorContext): string {
  const where = `File: \`${context.path}\``;
  if (context.text === undefined) return `${instruction.trim()}\n\n${where}`;
  const lines =
    context.startLine === undefined
      ? ''
      : context.endLine !== undefined && context.endLine > context.startLine
        ? ` (lines ${context.startLine}-${context.endLine})`
        : ` (line ${context.startLine})`;
  const fence = fenceFor(context.text);
  const code = context.text.endsWith('\n') ? context.text : `${context.text}\n`;
  return `${instruction.trim()}\n\n${where}${lines}:\n\n${fence}${context.languageId}\n${code}${fence}`;
}

/** A backtick fence longer than any backtick run inside the code, so the code cannot close it. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(Math.max(3, longest + 1));
}
