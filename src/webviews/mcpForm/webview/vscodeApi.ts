/** The handle VS Code injects into webviews; obtainable once per page. */
import type { WebviewToHost } from '../shared/protocol';
import type { PersistedState } from './persistedState';

export interface WebviewApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: PersistedState): void;
}

declare function acquireVsCodeApi(): WebviewApi;

export function vscodeApi(): WebviewApi {
  return acquireVsCodeApi();
}
