/** What the form's templates read (state) and call (actions); the app in main.ts provides both. */
import type { FormModel } from '../shared/formSchema';
import type { BusyOperation, McpCheck } from '../shared/protocol';
import type { SaveOutcome } from '../shared/saveOutcome';
import type { UiStrings } from '../shared/uiStrings';
import type { EditorDraft } from './editorDraft';

export type Banner = 'saved' | 'invalid' | null;

export interface ViewState {
  strings: UiStrings;
  model: FormModel | null;
  /** What the last save achieved, per part. */
  outcome: SaveOutcome | null;
  /** Why the server could not be read, if it could not. */
  loadProblem: string | null;
  draft: EditorDraft | null;
  busy: BusyOperation | null;
  dirty: boolean;
  stale: boolean;
  banner: Banner;
  errorFor(path: string): string | undefined;
  /** What the check before the last save found for this SSE or HTTP server, if it was checked. */
  checkFor(kind: 'sse' | 'shttp', url: string): McpCheck | undefined;
}

export interface ViewActions {
  edit(path: string, apply: (draft: EditorDraft) => void): void;
  touch(path: string): void;
  focusLater(domId: string): void;
  addSse(): void;
  addShttp(): void;
  addStdio(): void;
  removeEntry(kind: 'sse' | 'shttp' | 'stdio', index: number): void;
  save(): void;
  discard(): void;
  reload(): void;
  showLog(): void;
  configureServer(): void;
}
