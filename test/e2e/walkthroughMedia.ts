// The walkthrough's pictures (package.json `contributes.walkthroughs`) are taken by the e2e run, at the
// moment a step shows what the walkthrough step describes: a part of the window, scaled down and saved as
// a small WebP into media/walkthrough/<step>.webp, which is committed so the VSIX carries it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { ROOT } from '../../scripts/vscode/paths';

export const WALKTHROUGH_MEDIA_DIR = path.join(ROOT, 'media', 'walkthrough');

/** The walkthrough's step ids, each with a picture. */
export const WALKTHROUGH_STEPS = ['connect', 'newConversation', 'watch', 'approve', 'apply'] as const;
export type WalkthroughStep = (typeof WALKTHROUGH_STEPS)[number];

export interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Wider than this is scaled down: the walkthrough shows its picture in half of an editor. */
const MAX_WIDTH = 600;
/**
 * Each picture stays this small, or the capture fails: five of them ship in the VSIX, whose budget is
 * 300 KB. Each step's area is cut to what its text names, since bytes follow area more than quality.
 */
export const MAX_BYTES = 10_000;
/** WebP qualities tried in turn until the picture fits: text stays sharp down to about 0.5. */
const QUALITIES = [0.6, 0.55, 0.5, 0.45, 0.4, 0.35];

/**
 * Saves `area` of the window (a locator's box, cut by `trim`, or a rectangle) as the walkthrough
 * picture of `step`, and returns the file.
 */
export async function captureWalkthroughMedia(
  page: Page,
  step: WalkthroughStep,
  area: Locator | Area,
  trim: Partial<Area> = {},
): Promise<string> {
  const box = 'boundingBox' in area ? await area.boundingBox() : area;
  if (!box) throw new Error(`walkthrough picture "${step}": the area is not on screen`);
  const viewport = page.viewportSize() ?? { width: 1440, height: 900 };
  const x = Math.max(0, Math.round(box.x + (trim.x ?? 0)));
  const y = Math.max(0, Math.round(box.y + (trim.y ?? 0)));
  const clip = {
    x,
    y,
    width: Math.min(viewport.width - x, Math.round(trim.width ?? box.width - (trim.x ?? 0))),
    height: Math.min(viewport.height - y, Math.round(trim.height ?? box.height - (trim.y ?? 0))),
  };
  const png = await page.screenshot({ clip });
  const scale = Math.min(1, MAX_WIDTH / clip.width);
  const width = Math.round(clip.width * scale);
  const height = Math.round(clip.height * scale);

  // Scaled and encoded by Chromium itself, in a page of its own (the workbench page is left alone): WebP,
  // which for these pictures of text and flat colours is about a third smaller than a JPEG of the same
  // quality, even after the VSIX's zip (which shrinks Chromium's JPEGs by a sixth and WebP by nothing).
  const browser = page.context().browser();
  if (!browser) throw new Error('no browser to scale the walkthrough picture with');
  const scratch = await browser.newContext();
  try {
    const scaler = await scratch.newPage();
    const encoded = await scaler.evaluate(
      async ({ source, width, height, qualities, maxBytes }) => {
        const image = new Image();
        image.src = `data:image/png;base64,${source}`;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = width;
        canvas.height = height;
        const context = canvas.getContext('2d');
        if (!context) throw new Error('no 2d canvas');
        context.imageSmoothingQuality = 'high';
        context.drawImage(image, 0, 0, width, height);
        let base64 = '';
        for (const quality of qualities) {
          base64 = canvas.toDataURL('image/webp', quality).split(',')[1] ?? '';
          if ((base64.length * 3) / 4 <= maxBytes) break;
        }
        return base64;
      },
      { source: png.toString('base64'), width, height, qualities: QUALITIES, maxBytes: MAX_BYTES },
    );
    const webp = Buffer.from(encoded, 'base64');
    if (webp.subarray(8, 12).toString('latin1') !== 'WEBP')
      throw new Error(`walkthrough picture "${step}": Chromium did not encode WebP`);
    if (webp.length > MAX_BYTES)
      throw new Error(`walkthrough picture "${step}" is ${webp.length} bytes, over ${MAX_BYTES}`);
    fs.mkdirSync(WALKTHROUGH_MEDIA_DIR, { recursive: true });
    const file = path.join(WALKTHROUGH_MEDIA_DIR, `${step}.webp`);
    fs.writeFileSync(file, webp);
    console.log(
      `      (walkthrough picture ${path.relative(ROOT, file)}: ${width}×${height}, ${webp.length} bytes)`,
    );
    return file;
  } finally {
    await scratch.close();
  }
}
