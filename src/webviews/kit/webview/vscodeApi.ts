/**
 * The handle VS Code injects into a webview page, typed by what the page sends and what it keeps in
 * `setState` (restored after the panel was hidden or VS Code reloaded). Obtainable once per page.
 */
export interface WebviewApi<Outgoing, State> {
  postMessage(message: Outgoing): void;
  getState(): unknown;
  setState(state: State): void;
}

declare function acquireVsCodeApi<Outgoing, State>(): WebviewApi<Outgoing, State>;

export function vscodeApi<Outgoing, State>(): WebviewApi<Outgoing, State> {
  return acquireVsCodeApi<Outgoing, State>();
}
