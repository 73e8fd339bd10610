// Builds what VS Code loads: the extension (the project's own `npm run build`) and the integration
// suite, bundled here rather than in esbuild.mjs because it is test-only.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import {
  EXPORTS_PROBE_OUT_DIR,
  EXPORTS_PROBE_SRC_DIR,
  INTEGRATION_OUT_DIR,
  INTEGRATION_SRC_DIR,
  MEMFS_OUT_DIR,
  MEMFS_SRC_DIR,
  ROOT,
} from './paths';

export function buildExtension(): void {
  const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status ?? result.signal})`);
}

function suiteEntryPoints(): string[] {
  const tests = fs
    .readdirSync(INTEGRATION_SRC_DIR, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => path.join(INTEGRATION_SRC_DIR, file));
  return [path.join(INTEGRATION_SRC_DIR, 'index.ts'), ...tests];
}

// mocha 12's main entry is ESM, which Electron's Node cannot require(); its CommonJS build can be.
const mochaAsCommonJs: esbuild.Plugin = {
  name: 'mocha-cjs',
  setup(build) {
    build.onResolve({ filter: /^mocha$/ }, () => ({ path: 'mocha/lib/mocha.cjs', external: true }));
  },
};

/** Bundles test/integration/{index,**\/*.test}.ts into out/test/integration/ (vscode and mocha external). */
export async function buildIntegrationSuite(): Promise<void> {
  fs.rmSync(INTEGRATION_OUT_DIR, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: suiteEntryPoints(),
    outdir: INTEGRATION_OUT_DIR,
    outbase: INTEGRATION_SRC_DIR,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    plugins: [mochaAsCommonJs],
    sourcemap: 'inline',
    logLevel: 'warning',
  });
}

/** One file the extension host loads (`require`s), with `vscode` left to the host. */
export async function bundleForExtensionHost(entryPoint: string, outfile: string): Promise<void> {
  await esbuild.build({
    entryPoints: [entryPoint],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    logLevel: 'warning',
  });
}

/**
 * Bundles the e2e exports probe (test/e2e/exports-probe: a second extension that reads what ours
 * exports) into out/test/exports-probe/ with its manifest; returns that folder.
 */
export function buildExportsProbe(): Promise<string> {
  return buildTestExtension(EXPORTS_PROBE_SRC_DIR, EXPORTS_PROBE_OUT_DIR);
}

/**
 * Bundles the integration run's memfs extension (test/integration/virtualFolder/memfs: the virtual file
 * system its third VS Code opens a folder on) into out/test/memfs/ with its manifest; returns that folder.
 */
export function buildMemfsExtension(): Promise<string> {
  return buildTestExtension(MEMFS_SRC_DIR, MEMFS_OUT_DIR);
}

/** A test-only extension: its extension.ts bundled beside a copy of its package.json. */
async function buildTestExtension(sourceDir: string, outDir: string): Promise<string> {
  fs.rmSync(outDir, { recursive: true, force: true });
  await bundleForExtensionHost(path.join(sourceDir, 'extension.ts'), path.join(outDir, 'extension.js'));
  fs.copyFileSync(path.join(sourceDir, 'package.json'), path.join(outDir, 'package.json'));
  return outDir;
}
