/** The page's handle to VS Code, typed by this form's protocol and persisted state. */
import { vscodeApi, type WebviewApi } from '../../kit/webview/vscodeApi';
import type { WebviewToHost } from '../shared/protocol';
import type { PersistedState } from './persistedState';

export type FormWebviewApi = WebviewApi<WebviewToHost, PersistedState>;

export function formVscodeApi(): FormWebviewApi {
  return vscodeApi<WebviewToHost, PersistedState>();
}
