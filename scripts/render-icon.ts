// `npx tsx scripts/render-icon.ts`: renders the Marketplace icon, media/icon.png (128×128), from the hand in
// media/openhands.svg on a rounded dark tile, with the machine's Chromium (see scripts/vscode/browser.ts).
// Run it again after changing the hand or the colours, and commit the PNG. Chromium's PNG is then
// recompressed without loss by zopflipng (Debian's `zopfli`) when the machine has it: a third smaller.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { launchBrowser } from './vscode/browser';
import { ROOT } from './vscode/paths';

const SIZE = 128;
/** The tile and the hand; the manifest's galleryBanner uses the same dark colour. */
const BACKGROUND = '#1e1e24';
const HAND = '#ffd84d';

/** The paths of the activity-bar icon (a 24×24 stroke drawing), drawn large and centred on the tile. */
function iconSvg(): string {
  const source = fs.readFileSync(path.join(ROOT, 'media', 'openhands.svg'), 'utf8');
  const paths = source.match(/<path [^>]*\/>/g);
  if (!paths?.length) throw new Error('media/openhands.svg holds no <path/>');
  // the drawing spans about x 3–19, y 3–21 of its 24×24 box: scale ×4.6, then centre it
  const scale = 4.6;
  const offsetX = SIZE / 2 - 11.2 * scale;
  const offsetY = SIZE / 2 - 12.3 * scale;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">
  <rect width="${SIZE}" height="${SIZE}" rx="24" fill="${BACKGROUND}"/>
  <g transform="translate(${offsetX} ${offsetY}) scale(${scale})" fill="none" stroke="${HAND}"
     stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round">${paths.join('')}</g>
</svg>`;
}

async function main(): Promise<void> {
  const session = await launchBrowser();
  try {
    const page = await session.browser.newPage({ viewport: { width: SIZE, height: SIZE } });
    await page.setContent(`<html><body style="margin:0;background:transparent">${iconSvg()}</body></html>`);
    const out = path.join(ROOT, 'media', 'icon.png');
    await page.locator('svg').screenshot({ path: out, omitBackground: true });
    const rendered = fs.statSync(out).size;
    // --lossy_transparent changes only the colour of pixels nobody sees (alpha 0)
    const zopfli = spawnSync('zopflipng', ['-y', '-m', '--lossy_transparent', out, out], { stdio: 'ignore' });
    const note =
      zopfli.status === 0
        ? ` (${rendered} before zopflipng)`
        : ' (no zopflipng here: apt-get install zopfli)';
    console.log(`${path.relative(ROOT, out)}: ${fs.statSync(out).size} bytes${note}`);
  } finally {
    await session.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
