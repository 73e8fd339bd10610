/**
 * `<openhands-image>`: one image of a row. Its box has the image's shape (from the row's reference)
 * before the bytes come, so the list does not jump; it asks for the bytes when it is first shown,
 * draws them from the page's `blob:` URL, and opens the image whole in an editor tab when clicked.
 * Light DOM, built with DOM calls: no markup from a row is ever parsed.
 */
import type { ImageRef } from '../shared/rows';
import { imageRatio, LAYOUT } from './estimate';
import type { PageImages } from './pageImages';

export interface ImageEnv {
  images: PageImages;
  open(event: string, index: number): void;
}

let env: ImageEnv | undefined;

/** Set once by the page before any row renders. */
export function setImageEnv(value: ImageEnv): void {
  env = value;
}

export class ImageView extends HTMLElement {
  private current: ImageRef | undefined;
  private unwatch: (() => void) | undefined;

  get ref(): ImageRef | undefined {
    return this.current;
  }

  /** Set by the row's template (lit reuses the element when the row changes). */
  set ref(value: ImageRef | undefined) {
    const same =
      value && this.current && value.event === this.current.event && value.index === this.current.index;
    this.current = value;
    if (same || !this.isConnected) return;
    this.disconnectedCallback();
    this.connectedCallback();
  }

  connectedCallback(): void {
    const ref = this.current;
    if (!ref || !env || this.unwatch) return;
    this.unwatch = env.images.watch(ref.event, ref.index, () => this.draw());
    this.draw();
  }

  disconnectedCallback(): void {
    this.unwatch?.();
    this.unwatch = undefined;
  }

  private draw(): void {
    const ref = this.current;
    if (!ref || !env) return;
    const image = env.images.get(ref.event, ref.index);
    const width = image?.state === 'ready' ? image.width : ref.width;
    const height = image?.state === 'ready' ? image.height : ref.height;
    const frame = document.createElement('button');
    frame.type = 'button';
    frame.className = 'shot-frame';
    frame.title = `${ref.label} (click to open it whole)`;
    const compact = Number(this.getAttribute('max-height'));
    sizeFrame(frame, width, height, compact || LAYOUT.imageMaxHeight, compact > 0);
    if (image?.state === 'ready' && !env.images.claimDraw(ref.event, ref.index)) {
      frame.disabled = true;
      frame.classList.add('shot-loading');
      const budget = Math.round(env.images.drawBudget / 1024 / 1024);
      frame.textContent = `Not drawn while other pictures are in view: together they would take more than ${budget} MB of memory. Scroll them out of view to draw this one.`;
    } else if (image?.state === 'ready') {
      const picture = document.createElement('img');
      picture.src = image.url;
      picture.alt = ref.label;
      picture.draggable = false;
      frame.append(picture);
      frame.addEventListener('click', () => env?.open(ref.event, ref.index));
      // bytes the host checked may still not decode (an empty frame would say nothing): say so instead
      const kind = image.mime.slice('image/'.length).toUpperCase();
      picture.decode().catch(() => {
        // a picture replaced meanwhile (a redraw) is not this one's failure
        if (picture.isConnected)
          env?.images.broken(
            ref.event,
            ref.index,
            `This picture could not be drawn (the page could not decode its ${kind} bytes).`,
          );
      });
    } else {
      frame.disabled = true;
      const failed = image?.state === 'failed' || image?.state === 'broken';
      frame.classList.add(failed ? 'shot-failed' : 'shot-loading');
      frame.textContent =
        image?.state === 'failed'
          ? `Cannot be shown: ${image.problem}.`
          : image?.state === 'broken'
            ? image.problem
            : 'Loading…';
    }
    const caption = document.createElement('figcaption');
    caption.className = 'shot-caption';
    caption.textContent = ref.label;
    const figure = document.createElement('figure');
    figure.className = 'shot';
    figure.append(frame, caption);
    this.replaceChildren(figure);
  }
}

/** The box an image is drawn in: its shape, as wide as the column allows, at most `maxHeight` tall. */
function sizeFrame(
  frame: HTMLElement,
  width: number | undefined,
  height: number | undefined,
  maxHeight: number,
  /** A thumbnail of a fixed height (the browser strip), not as wide as the column allows. */
  fixed = false,
): void {
  const ratio = imageRatio(width, height);
  const widest = Math.round(maxHeight * ratio);
  if (fixed) {
    frame.style.aspectRatio = String(ratio);
    frame.style.width = `${widest}px`;
    return;
  }
  // CSSOM, not a style attribute: the panel's CSP allows no inline styles
  frame.style.aspectRatio = String(ratio);
  frame.style.width = width ? `min(100%, ${Math.min(width, widest)}px)` : `min(100%, ${widest}px)`;
}

if (!customElements.get('openhands-image')) customElements.define('openhands-image', ImageView);
