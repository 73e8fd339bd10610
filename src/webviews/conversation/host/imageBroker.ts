/**
 * The page's requests for a row's image: its bytes for the page once checked whole (`PanelImages`),
 * or it opened whole in an editor tab; else why it cannot be, scrubbed. No vscode import.
 */
import type { AgentEvent } from '../../../api/agentServer/events';
import type { HostToWebview } from '../shared/protocol';
import { PanelImages } from './panelImages';

export interface ImageBrokerDeps {
  wholeEvent(id: string): Promise<AgentEvent | undefined>;
  post(message: HostToWebview): void;
  scrub(text: string): string;
  /** Shows a checked image whole in an editor tab (`name`: a file name for its tab), or why it cannot be. */
  openImage?(image: { bytes: Buffer; name: string } | { problem: string }): void;
  /** The panel closed: an answer that comes after goes nowhere. */
  closed(): boolean;
}

export class ImageBroker {
  private readonly images: PanelImages;

  constructor(private readonly deps: ImageBrokerDeps) {
    this.images = new PanelImages((id) => deps.wholeEvent(id));
  }

  /** Bytes of checked images kept now (within the panel's budget). */
  get bytes(): number {
    return this.images.bytes;
  }

  /** An image's bytes for the page once checked, or why it cannot be shown. */
  async send(event: string, index: number): Promise<void> {
    const check = await this.images.image(event, index);
    if (this.deps.closed()) return;
    if (!check.ok) {
      this.deps.post({ type: 'image', event, index, problem: this.deps.scrub(check.reason) });
      return;
    }
    const { mime, width, height, frames, bytes } = check.image;
    this.deps.post({
      type: 'image',
      event,
      index,
      image: { mime, width, height, ...(frames > 1 ? { frames } : {}), base64: bytes.toString('base64') },
    });
  }

  async open(event: string, index: number): Promise<void> {
    const check = await this.images.image(event, index);
    if (this.deps.closed() || !this.deps.openImage) return;
    if (!check.ok) {
      this.deps.openImage({ problem: `The image cannot be opened: ${this.deps.scrub(check.reason)}.` });
      return;
    }
    const extension = check.image.mime.slice('image/'.length).replace('jpeg', 'jpg');
    this.deps.openImage({ bytes: check.image.bytes, name: `${event.slice(0, 8)}-${index + 1}.${extension}` });
  }
}
