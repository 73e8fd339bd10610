/**
 * The page's images: asked of the host when an image element is first shown (the virtual list shows
 * only rows near the viewport), drawn from `blob:` URLs made here from bytes the host checked, and
 * kept up to a byte budget; an image no element shows is the first to go (its URL revoked), and is
 * asked for again if it comes back into view. No vscode import: it posts through the page.
 */
import type { ImageReply } from '../shared/protocol';
import { decodeBase64 } from './attachments';

export type PageImage =
  | { state: 'loading' }
  | { state: 'ready'; url: string; width: number; height: number; bytes: number }
  | { state: 'failed'; problem: string };

/** What the page keeps of images not in view (decoded pictures cost more again in the renderer). */
export const PAGE_IMAGE_BUDGET = 48 * 1024 * 1024;

export function imageKey(event: string, index: number): string {
  return `${event}#${index}`;
}

export class PageImages {
  private readonly images = new Map<string, PageImage>();
  private readonly watchers = new Map<string, Set<() => void>>();
  private heldBytes = 0;

  constructor(
    private readonly ask: (event: string, index: number) => void,
    private readonly budget = PAGE_IMAGE_BUDGET,
  ) {}

  get bytes(): number {
    return this.heldBytes;
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
      if (watchers.size === 0) this.watchers.delete(key);
      this.evict();
    };
  }

  receive(reply: ImageReply): void {
    const key = imageKey(reply.event, reply.index);
    if (this.images.get(key)?.state !== 'loading') return;
    if (!reply.image) {
      this.images.set(key, { state: 'failed', problem: reply.problem ?? 'it could not be read' });
    } else {
      const { mime, base64, width, height } = reply.image;
      const bytes = decodeBase64(base64);
      const url = URL.createObjectURL(new Blob([bytes], { type: mime }));
      this.images.set(key, { state: 'ready', url, width, height, bytes: bytes.length });
      this.heldBytes += bytes.length;
    }
    for (const changed of this.watchers.get(key) ?? []) changed();
    this.evict();
  }

  /** Every image goes (the host starts over, or the page closes). */
  clear(): void {
    for (const image of this.images.values()) if (image.state === 'ready') URL.revokeObjectURL(image.url);
    this.images.clear();
    this.heldBytes = 0;
  }

  private evict(): void {
    for (const [key, image] of this.images) {
      if (this.heldBytes <= this.budget) return;
      if (image.state !== 'ready' || this.watchers.has(key)) continue;
      URL.revokeObjectURL(image.url);
      this.images.delete(key);
      this.heldBytes -= image.bytes;
    }
  }
}
