// The picture preset (`POST /__control/agent/conversations/:id/workspace/images`): a base commit with
// two pictures and an agent's change on top, from the real images in test/fixtures/images: a PNG
// updated (page-changed.png is page.png inverted and mirrored, made with Pillow), a WebP added, a
// JPEG deleted, and a hostile `.png` whose bytes are an SVG with a script (text, to the agent server).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Git } from './git/gitCommand';
import { commitPaths, writeWorkspaceFiles, type WorkspaceFile } from './workspaceEdits';

const IMAGES = path.join(__dirname, '..', '..', 'fixtures', 'images');

/** A picture by name in the agent's change, and the fixture that is its bytes. */
export const IMAGE_CHANGES = {
  updated: { path: 'art/page.png', before: 'page.png', after: 'page-changed.png' },
  added: { path: 'art/small.webp', after: 'small.webp' },
  deleted: { path: 'art/photo.jpg', before: 'page.jpg' },
} as const;

export const HOSTILE_PNG_PATH = 'art/evil.png';
export const HOSTILE_PNG_TEXT =
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script></svg>\n';

function fixture(name: string): WorkspaceFile {
  return { base64: readFileSync(path.join(IMAGES, name)).toString('base64') };
}

export async function buildImageWorkspace(git: Git, dir: string): Promise<void> {
  const { updated, added, deleted } = IMAGE_CHANGES;
  const base = writeWorkspaceFiles(dir, {
    [updated.path]: fixture(updated.before),
    [deleted.path]: fixture(deleted.before),
  });
  await commitPaths(git, dir, base, 'Pictures base', true);
  writeWorkspaceFiles(dir, {
    [updated.path]: fixture(updated.after),
    [added.path]: fixture(added.after),
    [deleted.path]: null,
    [HOSTILE_PNG_PATH]: HOSTILE_PNG_TEXT,
  });
}
