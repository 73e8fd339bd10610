/**
 * How a form's page starts: it renders into `#app`, hands each host message that matches its protocol
 * to its handlers (a malformed one is dropped, never acted on) and renders again, then tells the host
 * it is listening.
 */
import { dispatchMessage, type MessageHandlers } from '../shared/messages';
import type * as z from 'zod/mini';
import type { WebviewApi } from './vscodeApi';

export interface FormPageStart<Incoming extends { type: string }> {
  api: WebviewApi<{ type: 'ready' }, unknown>;
  schema: z.ZodMiniType<Incoming>;
  handlers: MessageHandlers<Incoming>;
  render(): void;
  /** Names the page in the console. */
  pageName: string;
}

/** Returns the element the page renders into. */
export function startFormPage<Incoming extends { type: string }>(
  start: FormPageStart<Incoming>,
): HTMLElement {
  const root = document.getElementById('app');
  if (!root) throw new Error('missing #app');
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const dispatched = dispatchMessage(start.schema, start.handlers, event.data);
    if (!dispatched.ok)
      console.warn(`${start.pageName}: ignored a malformed host message (${dispatched.problem})`);
    else start.render();
  });
  start.api.postMessage({ type: 'ready' });
  return root;
}
