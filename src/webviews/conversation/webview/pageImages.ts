/**
 * The page's images: asked of the host when an image element is first shown (the virtual list shows
 * only rows near the viewport), drawn from `blob:` URLs made here from bytes the host checked, and
 * kept up to a budget of what they cost decoded; an image no element shows is the first to go (its URL
 * revoked), and is asked for again if it comes back into view. One the browser cannot decode is kept
 * as why, and not asked for again. No vscode import: it posts through the page.
 */
import type { ImageReply } from '../shared/protocol';
import { decodeBase64 } from './attachments';

export type PageImage =
  | { state: 'loading' }
  | { state: 'ready'; url: string; mime: string; width: number; height: number; cost: number }
  /** The host could not give it (asked again when it comes back into view: the sandbox may answer). */
  | { state: 'failed'; problem: string }
  /** The browser could not decode the bytes the host checked (never asked again: they would not change). */
  | { state: 'broken'; problem: string };

/**
 * What the images the page keeps may cost, decoded: what governs the renderer is the bitmap a picture
 * decodes to (4 bytes a pixel, per frame), not its file (a 300 KB screenshot of 1280 × 800 px decodes
 * to 4 MB). 128 MB: two pictures at the host's cap for one (64 MB), or 32 such screenshots.
 */
export const PAGE_IMAGE_BUDGET = 128 * 1024 * 1024;

/**
 * What the pictures drawn at once may cost decoded: a browser keeps the bitmap of every picture in view,
 * and a row may carry 16 pictures of 64 MB each (1 GB). 96 MB: two 4K screenshots (33 MB each) and a
 * dozen of 1280 × 800 px (4 MB each) together. Past it, one more waits, said in words, until others
 * leave the view; one picture alone is always drawn (the host caps it at 64 MB).
 */
export const PAGE_DRAW_BUDGET = 96 * 1024 * 1024;

/** What a picture costs the page: its decoded bitmaps, or its bytes when they weigh more. */
export function imageCost(width: number, height: number, frames: number, bytes: number): number {
  return Math.max(bytes, width * height * 4 * Math.max(1, frames));
}

export function imageKey(event: string, index: number): string {
  return `${event}#${index}`;
}

export class PageImages {
  private readonly images = new Map<string, PageImage>();
  private readonly watchers = new Map<string, Set<() => void>>();
  private heldCost = 0;
  /** The pictures elements draw now (each by its cost), within `drawBudget`. */
  private readonly drawn = new Map<string, number>();
  private drawnCost = 0;

  constructor(
    private readonly ask: (event: string, index: number) => void,
    private readonly budget = PAGE_IMAGE_BUDGET,
    readonly drawBudget = PAGE_DRAW_BUDGET,
  ) {}

  /** What the images held cost decoded (see `imageCost`). */
  get cost(): number {
    return this.heldCost;
  }

  get(event: string, index: number): PageImage | undefined {
    return this.images.get(imageKey(event, index));
  }

  /** An element shows the image from now on: asked of the host unless held; `changed` on news. */
  watch(event: string, index: number, changed: () => void): () => void {
    const key = imageKey(event, index);
    let watchers = this.watchers.get(key);
    if (!watchers) this.watchers.set(key, (watchers = new Set()));
    watchers.add(changed);
    const held = this.images.get(key);
    if (!held || held.state === 'failed') {
      this.images.set(key, { state: 'loading' });
      this.ask(event, index);
    } else {
      // used now: it goes last in the order of eviction
      this.images.delete(key);
      this.images.set(key, held);
    }
    return () => {
      watchers.delete(changed);
      if (watchers.size === 0) {
        this.watchers.delete(key);
        this.release(key);
      }
      this.evict();
    };
  }

  /**
   * Whether an element showing the image may draw it now (its cost is then counted until no element
   * shows it): yes when it is drawn already, or fits the draw budget with the others, or is alone.
   */
  claimDraw(event: string, index: number): boolean {
    const key = imageKey(event, index);
    if (this.drawn.has(key)) return true;
    const image = this.images.get(key);
    if (image?.state !== 'ready' || !this.watchers.has(key)) return false;
    if (this.drawn.size > 0 && this.drawnCost + image.cost > this.drawBudget) return false;
    this.drawn.set(key, image.cost);
    this.drawnCost += image.cost;
    return true;
  }

  /** No element draws the image any more: the pictures waiting for room are told to try again. */
  private release(key: string): void {
    const cost = this.drawn.get(key);
    if (cost === undefined) return;
    this.drawn.delete(key);
    this.drawnCost -= cost;
    for (const waiting of [...this.watchers.keys()])
      if (!this.drawn.has(waiting) && this.images.get(waiting)?.state === 'ready') this.changed(waiting);
  }

  receive(reply: ImageReply): void {
    const key = imageKey(reply.event, reply.index);
    if (this.images.get(key)?.state !== 'loading') return;
    if (!reply.image) {
      this.images.set(key, { state: 'failed', problem: reply.problem ?? 'it could not be read' });
    } else {
      const { mime, base64, width, height, frames = 1 } = reply.image;
      const bytes = decodeBase64(base64);
      const url = URL.createObjectURL(new Blob([bytes], { type: mime }));
      const cost = imageCost(width, height, frames, bytes.length);
      this.images.set(key, { state: 'ready', url, mime, width, height, cost });
      this.heldCost += cost;
    }
    this.changed(key);
    this.evict();
  }

  /** The browser could not decode the image: its URL goes, and every element showing it says `problem`. */
  broken(event: string, index: number, problem: string): void {
    const key = imageKey(event, index);
    const image = this.images.get(key);
    if (image?.state !== 'ready') return;
    URL.revokeObjectURL(image.url);
    this.heldCost -= image.cost;
    this.images.set(key, { state: 'broken', problem });
    this.changed(key);
    this.release(key);
  }

  private changed(key: string): void {
    for (const changed of this.watchers.get(key) ?? []) changed();
  }

  /** Every image goes (the host starts over, or the page closes). */
  clear(): void {
    for (const image of this.images.values()) if (image.state === 'ready') URL.revokeObjectURL(image.url);
    this.images.clear();
    this.heldCost = 0;
    this.drawn.clear();
    this.drawnCost = 0;
  }

  private evict(): void {
    for (const [key, image] of this.images) {
      if (this.heldCost <= this.budget) return;
      if (image.state !== 'ready' || this.watchers.has(key)) continue;
      URL.revokeObjectURL(image.url);
      this.images.delete(key);
      this.heldCost -= image.cost;
    }
  }
}
