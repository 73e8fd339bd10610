// The walkthrough's pictures (package.json `contributes.walkthroughs`) are taken by the e2e run, at the
// moment a step shows what the walkthrough step describes: a part of the window, scaled down and saved as
// a small JPEG into media/walkthrough/<step>.jpg, which is committed so the VSIX carries it.
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
/** Each picture stays this small, or the capture fails: five of them ship in the VSIX. */
export const MAX_BYTES = 20_000;

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

  // Scaled by Chromium itself, in a page of its own (the workbench page is left alone).
  const browser = page.context().browser();
  if (!browser) throw new Error('no browser to scale the walkthrough picture with');
  const scratch = await browser.newContext({ viewport: { width, height } });
  try {
    const scaler = await scratch.newPage();
    await scaler.setContent(
      `<body style="margin:0"><img style="display:block;width:${width}px;height:${height}px" ` +
        `src="data:image/png;base64,${png.toString('base64')}"></body>`,
    );
    await scaler.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    let jpeg: Buffer | undefined;
    for (const quality of [70, 62, 55, 48, 42, 36, 30]) {
      jpeg = await scaler.screenshot({ type: 'jpeg', quality });
      if (jpeg.length <= MAX_BYTES) break;
    }
    if (!jpeg || jpeg.length > MAX_BYTES)
      throw new Error(`walkthrough picture "${step}" is ${jpeg?.length} bytes, over ${MAX_BYTES}`);
    fs.mkdirSync(WALKTHROUGH_MEDIA_DIR, { recursive: true });
    const file = path.join(WALKTHROUGH_MEDIA_DIR, `${step}.jpg`);
    fs.writeFileSync(file, jpeg);
    console.log(
      `      (walkthrough picture ${path.relative(ROOT, file)}: ${width}×${height}, ${jpeg.length} bytes)`,
    );
    return file;
  } finally {
    await scratch.close();
  }
}
