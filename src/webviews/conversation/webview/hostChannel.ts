/**
 * The page's line to the extension host: what it posts, typed by the protocol, and what it receives,
 * checked against the protocol and handled in order. Handling can wait for a paint, so the newest rows
 * show before the older chunks queued right behind them are handled.
 */
import { markOpening } from '../../../common/openingMarks';
import type { WebviewApi } from '../../kit/webview/vscodeApi';
import {
  dispatchMessage,
  HostToWebviewSchema,
  type HostToWebview,
  type MessageHandlers,
  type WebviewToHost,
} from '../shared/protocol';

/** After the first rows painted, the next messages wait for the frame, or this long at most. */
const PAINT_WAIT_MS = 100;

export class HostChannel {
  /** Host messages not handled yet, in order. */
  private readonly inbox: unknown[] = [];
  /** Handling waits for a frame to paint (the newest rows first: older chunks may be right behind). */
  private waitingForPaint = false;

  constructor(
    private readonly api: Pick<WebviewApi<WebviewToHost, unknown>, 'postMessage'>,
    private readonly handlers: MessageHandlers<HostToWebview>,
    /** After one or more messages were handled: the page renders what they changed once. */
    private readonly handled: () => void,
  ) {}

  /** Starts receiving what the host posts. */
  listen(): void {
    window.addEventListener('message', (event: MessageEvent<unknown>) => {
      markOpening('firstMessage');
      this.inbox.push(event.data);
      this.drain();
    });
  }

  post(message: WebviewToHost): void {
    this.api.postMessage(message);
  }

  /** The messages after this one wait until the frame paints. */
  waitForPaint(): void {
    this.waitingForPaint = true;
    let done = false;
    const resume = () => {
      if (done) return;
      done = true;
      this.waitingForPaint = false;
      this.drain();
    };
    // after the frame that paints (a hidden page gets no frames: the timer then)
    requestAnimationFrame(() => setTimeout(resume, 0));
    setTimeout(resume, PAINT_WAIT_MS);
  }

  /** Handles the messages received, in order, unless waiting for a paint. */
  private drain(): void {
    let changed = false;
    while (!this.waitingForPaint && this.inbox.length > 0) {
      this.received(this.inbox.shift());
      changed = true;
    }
    if (changed) this.handled();
  }

  private received(raw: unknown): void {
    const dispatched = dispatchMessage(HostToWebviewSchema, this.handlers, raw);
    if (!dispatched.ok) {
      console.warn(`Conversation: ignored a malformed host message (${dispatched.problem})`);
    }
  }
}
