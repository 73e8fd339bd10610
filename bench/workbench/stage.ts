// The production build as users get it: `npm run package` (minified bundles, then the VSIX),
// unpacked into out/bench/vsix/extension for code-server to load. Rebuilds the development
// dist/ afterwards, which the test runners expect.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from '../../scripts/vscode/paths';

const STAGE_DIR = path.join(ROOT, 'out', 'bench', 'vsix');
const VSIX = path.join(ROOT, 'openhands-vscode.vsix');
/** Written by esbuild.mjs on a production build. */
const HOST_METAFILE = path.join(ROOT, 'out', 'host-bundles.meta.json');

export interface StagedExtension {
  /** The unpacked VSIX's extension folder. */
  folder: string;
  vsixBytes: number;
  vsixFiles: number;
  hostMetafile: string;
}

export function stageProductionBuild(): StagedExtension {
  execFileSync('npm', ['run', '--silent', 'package'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const vsixBytes = fs.statSync(VSIX).size;
  fs.rmSync(STAGE_DIR, { recursive: true, force: true });
  fs.mkdirSync(STAGE_DIR, { recursive: true });
  execFileSync('unzip', ['-q', VSIX, '-d', STAGE_DIR]);
  const folder = path.join(STAGE_DIR, 'extension');
  const vsixFiles = fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile()).length;
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  return { folder, vsixBytes, vsixFiles, hostMetafile: HOST_METAFILE };
}
