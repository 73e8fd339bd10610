/** What the page's templates read (state) and call (actions); the page in main.ts provides both. */
import type { Choice, Field, ModelDraft, PageModel } from '../shared/pageModel';
import type { BusyOperation, Notice } from '../shared/protocol';
import type { UiStrings } from '../shared/uiStrings';

export interface ShownList {
  query: string;
  items: Choice[];
  more: number;
}

export interface ViewState {
  strings: UiStrings;
  page: PageModel | null;
  problem: string | null;
  draft: ModelDraft | null;
  busy: BusyOperation | null;
  notice: Notice | null;
  providers: ShownList;
  models: ShownList;
  profileName: string;
  renaming: { name: string; value: string } | null;
  errorFor(field: Field): string | undefined;
}

export interface ViewActions {
  edit(field: keyof ModelDraft, value: string | boolean | null): void;
  searchProviders(query: string): void;
  searchModels(query: string): void;
  chooseProvider(name: string): void;
  chooseModel(id: string): void;
  save(): void;
  reload(): void;
  openInBrowser(): void;
  showLog(): void;
  configureServer(): void;
  setProfileName(value: string): void;
  /** Saves the current settings under the name typed (read when clicked, not when drawn). */
  saveProfile(): void;
  profile(action: 'save' | 'activate' | 'delete', name: string): void;
  startRename(name: string): void;
  editRename(value: string): void;
  confirmRename(): void;
  cancelRename(): void;
}
