/**
 * The page's requests that the host answers by id (the agent's controls): each goes with a number of
 * its own, and the host's `reply` of that number settles it; a failed one's words stay shown until
 * the next control. Numbers start at the page's load time, so a reply meant for a page that was
 * reloaded meanwhile settles nothing here.
 */
import type { Reply, WebviewToHost } from '../shared/protocol';

type Numbered = Extract<WebviewToHost, { id: number }>;
type Unnumbered<T> = T extends unknown ? Omit<T, 'id'> : never;
/** A request as the caller writes it; its id is given here. */
export type Request = Unnumbered<Numbered>;

export class Requests {
  private next = Date.now();
  private readonly waiting = new Map<number, (reply: Reply) => void>();
  private failure: string | null = null;

  constructor(
    private readonly post: (message: WebviewToHost) => void,
    /** What is shown changed (a new request takes the last failure away). */
    private readonly changed: () => void = () => undefined,
  ) {}

  /** Why the last control failed (its reply's words), until the next one is asked. */
  get error(): string | null {
    return this.failure;
  }

  /** Posts the request with its id (returned); `settled` gets its reply. */
  ask(request: Request, settled?: (reply: Reply) => void): number {
    const id = this.next++;
    this.failure = null;
    this.waiting.set(id, (reply) => {
      this.failure = reply.ok ? null : (reply.error ?? null);
      settled?.(reply);
    });
    this.post({ ...request, id } as Numbered);
    this.changed();
    return id;
  }

  settle(reply: Reply): void {
    const settled = this.waiting.get(reply.id);
    this.waiting.delete(reply.id);
    settled?.(reply);
  }
}
