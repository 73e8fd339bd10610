/**
 * Keeps the page's view state (`viewState.ts`: where the reader was, the draft, the fold) in VS Code's
 * `setState`: a moment after the last change, so scrolling does not write on every frame, or at once
 * when asked; never the same state twice.
 */
import type { WebviewApi } from '../../kit/webview/vscodeApi';
import type { ViewState } from './viewState';

/** Where the reader is, saved this long after they stop scrolling. */
const PERSIST_DELAY_MS = 250;

export class StateSaver {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private saved = '';

  constructor(
    private readonly api: Pick<WebviewApi<unknown, ViewState>, 'setState'>,
    private readonly current: () => ViewState,
  ) {}

  soon(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.now(), PERSIST_DELAY_MS);
  }

  /** Saves now: a click that hides the page right after (a file of the change opening) must not lose it. */
  now(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const state = this.current();
    const text = JSON.stringify(state);
    if (text === this.saved) return;
    this.saved = text;
    this.api.setState(state);
  }
}
