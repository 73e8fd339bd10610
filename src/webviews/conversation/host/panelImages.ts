/**
 * The images a panel's page asks for, read whole and checked here before any byte reaches the page:
 * the event log holds each image's head only, so the event is read again from the agent server (one
 * or two at a time), and its image at the asked place is checked by its bytes (`api/.../images.ts`).
 * What was checked is kept, newest used last, up to a byte budget per panel, so scrolling back and
 * forth does not read the sandbox again; a failure is not kept (the sandbox may answer later).
 * No vscode import: unit-tested in Node.
 */
import { checkEventImage, eventImages } from '../../../api/agentServer/eventImages';
import type { AgentEvent } from '../../../api/agentServer/events';
import type { ImageCheck } from '../../../api/agentServer/images';

/** What one panel keeps of checked images (a screenshot is 0.1–3 MB): a few dozen screenshots. */
export const PANEL_IMAGE_BUDGET = 32 * 1024 * 1024;
/** Events read at once for images: the page asks for every image near the viewport together. */
const PARALLEL_READS = 2;

export class PanelImages {
  private readonly kept = new Map<string, ImageCheck & { ok: true }>();
  private keptBytes = 0;
  private readonly reading = new Map<string, Promise<ImageCheck>>();
  private readonly queue: (() => void)[] = [];
  private running = 0;

  constructor(
    /** The event whole, or undefined when it cannot be read now. */
    private readonly readEvent: (id: string) => Promise<AgentEvent | undefined>,
    private readonly budget = PANEL_IMAGE_BUDGET,
  ) {}

  /** Bytes kept now (for tests and the bench). */
  get bytes(): number {
    return this.keptBytes;
  }

  image(eventId: string, index: number): Promise<ImageCheck> {
    const key = `${eventId}#${index}`;
    const kept = this.kept.get(key);
    if (kept) {
      // most recently used goes last, first out is the least recently used
      this.kept.delete(key);
      this.kept.set(key, kept);
      return Promise.resolve(kept);
    }
    let read = this.reading.get(key);
    if (!read) {
      read = this.limited(() => this.read(eventId, index)).finally(() => this.reading.delete(key));
      this.reading.set(key, read);
    }
    return read;
  }

  clear(): void {
    this.kept.clear();
    this.keptBytes = 0;
  }

  private async read(eventId: string, index: number): Promise<ImageCheck> {
    const event = await this.readEvent(eventId);
    if (!event) return { ok: false, reason: 'it could not be read from the sandbox (paused or unreachable)' };
    const image = eventImages(event).find((candidate) => candidate.index === index);
    if (!image) return { ok: false, reason: 'the event holds no such image' };
    const check = checkEventImage(image);
    if (check.ok) this.keep(`${eventId}#${index}`, check);
    return check;
  }

  private keep(key: string, check: ImageCheck & { ok: true }): void {
    const size = check.image.bytes.length;
    if (size > this.budget) return;
    this.kept.set(key, check);
    this.keptBytes += size;
    for (const [oldest, value] of this.kept) {
      if (this.keptBytes <= this.budget) break;
      this.kept.delete(oldest);
      this.keptBytes -= value.image.bytes.length;
    }
  }

  private async limited<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= PARALLEL_READS) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      this.queue.shift()?.();
    }
  }
}
