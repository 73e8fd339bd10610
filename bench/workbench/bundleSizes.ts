// What each host bundle holds, by package (node_modules) or source folder, from esbuild's metafile,
// and when it loads; and the floor under the first use.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { hostBuildOptions } from '../../scripts/build/host.mjs';

interface Metafile {
  outputs: Record<string, { bytes: number; inputs: Record<string, { bytesInOutput: number }> }>;
}

/** `node_modules/axios/lib/x.js` → `axios`; `src/api/client.ts` → `src/api`; `src/extension.ts` stays. */
function owner(input: string): string {
  const parts = input.split('/');
  const modules = parts.lastIndexOf('node_modules');
  if (modules >= 0) {
    const name = parts[modules + 1] ?? input;
    return name.startsWith('@') ? `${name}/${parts[modules + 2] ?? ''}` : name;
  }
  const src = parts.indexOf('src');
  return src >= 0 && parts[src + 1] ? `src/${parts[src + 1]}` : input;
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

function sizeLine(name: string, output: Metafile['outputs'][string], largest: number): string {
  const shares = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const key = owner(input);
    shares.set(key, (shares.get(key) ?? 0) + bytesInOutput);
  }
  const parts = [...shares]
    .filter(([, bytes]) => bytes >= 512)
    .sort((a, b) => b[1] - a[1])
    .slice(0, largest)
    .map(([owned, bytes]) => `${owned} ${(bytes / 1024).toFixed(0)}`);
  return `${name.padEnd(14)} ${kb(output.bytes).padStart(9)}  (KB: ${parts.join(', ')})`;
}

/** When each host bundle loads (scripts/build/host.mjs). */
const LOADED: Record<string, string> = {
  'extension.js': 'at activation',
  'services.js': 'at first use',
  'ws.js': 'when the first event socket opens',
  'changes.js': 'when a change is first applied or saved',
};

export function bundleSizeLines(metafilePath: string, largest = 8): string[] {
  const metafile = JSON.parse(fs.readFileSync(metafilePath, 'utf8')) as Metafile;
  return Object.entries(metafile.outputs)
    .filter(([file]) => file.endsWith('.js'))
    .map(([file, output]) => {
      const name = path.basename(file);
      return `${sizeLine(name, output, largest)}  ${LOADED[name] ?? ''}`.trimEnd();
    });
}

/**
 * The floor of the first use: treeFloor.ts (only what the trees' first rows need) bundled and
 * minified with the host's own build options (scripts/build/host.mjs).
 */
export async function treeFloorLine(largest = 8): Promise<string> {
  const result = await esbuild.build({
    ...hostBuildOptions({ outdir: 'out/tree-floor', production: true }),
    entryPoints: [path.join(__dirname, 'treeFloor.ts')],
    write: false,
  });
  const [output] = Object.values(result.metafile?.outputs ?? {});
  if (!output) throw new Error('esbuild wrote no bundle for treeFloor.ts');
  return sizeLine('trees alone', output, largest);
}
