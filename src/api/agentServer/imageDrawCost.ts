/**
 * What drawing a picture costs the page: a browser decodes a picture whole, 4 bytes a pixel, whatever
 * size it is shown at, and an animation frame by frame, each a bitmap of the whole canvas. A PNG of a
 * few KB can declare 16,384 × 16,384 px (1 GB decoded; it took the conversation page's renderer from
 * 346 MB to 1,743 MB to draw a 318 px thumbnail), so a picture is judged by its decoded size, never by
 * its file's or its sides'.
 */

/**
 * A picture costs at most this decoded: a 4K screenshot is 3840 × 2160 × 4 = 33 MB, a page captured
 * whole at 1280 × 12,000 px 61 MB; twice a 4K screenshot, and a sixteenth of the 1 GB the bomb took.
 */
export const MAX_DRAW_BYTES = 64 * 1024 * 1024;

/**
 * Frames an animation may have (30 s at 30 frames a second). One over this, or over `MAX_DRAW_BYTES`
 * with its frames counted, is refused rather than drawn still: a still needs a new file made of its first
 * frame (re-encoding WebP takes native code), and a browser decodes the frames of the animation it is
 * given as it plays them.
 */
export const MAX_FRAMES = 1_000;

export interface DrawSize {
  width: number;
  height: number;
  /** 1 for a still picture, or unknown (a head cannot tell). */
  frames?: number;
}

/** Bytes a browser holds to draw the picture: its canvas, 4 bytes a pixel, once per frame. */
export function drawBytes({ width, height, frames = 1 }: DrawSize): number {
  return width * height * 4 * Math.max(1, frames);
}

/** Why the picture is too costly to draw, in words for "cannot be shown: …", or undefined when it is not. */
export function drawCostProblem(size: DrawSize): string | undefined {
  const frames = size.frames ?? 1;
  const sides = `${size.width.toLocaleString('en-US')} × ${size.height.toLocaleString('en-US')} px`;
  if (frames > MAX_FRAMES)
    return `it is an animation of ${frames.toLocaleString('en-US')} frames of ${sides} (${MAX_FRAMES.toLocaleString('en-US')} at most)`;
  const cost = drawBytes(size);
  if (cost <= MAX_DRAW_BYTES) return undefined;
  const what = frames > 1 ? `its ${frames.toLocaleString('en-US')} frames of ${sides}` : `at ${sides} it`;
  return `${what} would take ${megabytes(cost)} of memory to draw (${megabytes(MAX_DRAW_BYTES)} at most)`;
}

function megabytes(bytes: number): string {
  const mb = bytes / 1024 / 1024;
  return mb >= 1024 ? `${(mb / 1024).toFixed(1).replace(/\.0$/, '')} GB` : `${Math.round(mb)} MB`;
}
