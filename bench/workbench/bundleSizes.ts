// What the host code loads when, by package (node_modules) or source folder, from esbuild's
// metafile: the files the entry imports, the files the first use imports, and what each dynamic
// import adds later.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { packagesLeftOut } from '../../scripts/build/packagesLeftOut.mjs';

interface Output {
  bytes: number;
  entryPoint?: string;
  inputs: Record<string, { bytesInOutput: number }>;
  imports: { path: string; kind: string; external?: boolean }[];
}

interface Metafile {
  outputs: Record<string, Output>;
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

/** Size and largest owners of a set of output files, on one line. */
function sizeLine(name: string, outputs: Output[], largest: number): string {
  const shares = new Map<string, number>();
  for (const output of outputs) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const key = owner(input);
      shares.set(key, (shares.get(key) ?? 0) + bytesInOutput);
    }
  }
  const bytes = outputs.reduce((sum, output) => sum + output.bytes, 0);
  const parts = [...shares]
    .filter(([, share]) => share >= 512)
    .sort((a, b) => b[1] - a[1])
    .slice(0, largest)
    .map(([owned, share]) => `${owned} ${(share / 1024).toFixed(0)}`);
  const files = outputs.length > 1 ? `, ${outputs.length} files` : '';
  return `${name.padEnd(34)} ${kb(bytes).padStart(9)}  (KB: ${parts.join(', ')}${files})`;
}

/** The output file and every file it imports statically, transitively. */
function staticClosure(metafile: Metafile, file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file) || !metafile.outputs[file]) return seen;
  seen.add(file);
  for (const imported of metafile.outputs[file].imports) {
    if (imported.kind === 'import-statement' && !imported.external)
      staticClosure(metafile, imported.path, seen);
  }
  return seen;
}

/**
 * The host code by when it loads: at activation (the entry and its imports), at first use (the
 * services and theirs), and what each dynamic import adds to what is loaded by then.
 */
export function bundleSizeLines(metafilePath: string, largest = 8): string[] {
  const metafile = JSON.parse(fs.readFileSync(metafilePath, 'utf8')) as Metafile;
  const outputsOf = (files: Iterable<string>) => [...files].flatMap((file) => metafile.outputs[file] ?? []);
  const activation = staticClosure(metafile, 'dist/extension.mjs');
  const firstUse = new Set([...activation, ...staticClosure(metafile, 'dist/services.mjs')]);
  const lines = [
    sizeLine('at activation: extension.mjs', outputsOf(activation), largest),
    sizeLine(
      'at first use: + services.mjs',
      outputsOf([...firstUse].filter((file) => !activation.has(file))),
      largest,
    ),
    'later, each when first needed (what it adds to the first use):',
  ];
  const later = Object.entries(metafile.outputs).filter(
    ([file, output]) => output.entryPoint && !firstUse.has(file) && file.endsWith('.mjs'),
  );
  for (const [file, output] of later) {
    const added = [...staticClosure(metafile, file)].filter((each) => !firstUse.has(each));
    lines.push(`  ${sizeLine(output.entryPoint ?? path.basename(file), outputsOf(added), largest)}`);
  }
  return lines;
}

/**
 * The floor of the first use: treeFloor.ts (only what the trees' first rows need) bundled and
 * minified as esbuild.mjs bundles the host.
 */
export async function treeFloorLine(largest = 8): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [path.join(__dirname, 'treeFloor.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    external: ['vscode'],
    minify: true,
    metafile: true,
    write: false,
    logLevel: 'warning',
    plugins: [packagesLeftOut],
  });
  const [output] = Object.values(result.metafile.outputs);
  if (!output) throw new Error('esbuild wrote no bundle for treeFloor.ts');
  return sizeLine('the trees alone (treeFloor.ts)', [output], largest);
}
