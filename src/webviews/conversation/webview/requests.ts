/**
 * The page's requests that the host answers by id (the agent's controls): each goes with a number of
 * its own, and the host's `reply` of that number settles it. Numbers start at the page's load time,
 * so a reply meant for a page that was reloaded meanwhile settles nothing here.
 */
import type { Reply, WebviewToHost } from '../shared/protocol';

type Numbered = Extract<WebviewToHost, { id: number }>;
type Unnumbered<T> = T extends unknown ? Omit<T, 'id'> : never;
/** A request as the caller writes it; its id is given here. */
export type Request = Unnumbered<Numbered>;

export class Requests {
  private next = Date.now();
  private readonly waiting = new Map<number, (reply: Reply) => void>();

  constructor(private readonly post: (message: WebviewToHost) => void) {}

  /** Posts the request with its id (returned); `settled` gets its reply. */
  ask(request: Request, settled: (reply: Reply) => void): number {
    const id = this.next++;
    this.waiting.set(id, settled);
    this.post({ ...request, id } as Numbered);
    return id;
  }

  settle(reply: Reply): void {
    const settled = this.waiting.get(reply.id);
    this.waiting.delete(reply.id);
    settled?.(reply);
  }
}
