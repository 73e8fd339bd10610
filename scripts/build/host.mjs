// How the extension host code is bundled: esbuild.mjs builds dist/ with these options, and a unit
// test builds the same way in memory to check what loads when.
import { packagesLeftOut, wsClientAlias } from './packagesLeftOut.mjs';

/**
 * ES modules split by esbuild (VS Code imports an extension's `.mjs` main since 1.100):
 * `extension.mjs`, the small entry VS Code loads; `services.mjs`, the rest, imported on first use; and
 * a chunk at each dynamic `import()` in the source (the conversation panel's host, the MCP form's,
 * the connect flow, Apply, git's side of a change, ws), imported where it is first needed. What two of
 * those share goes into a chunk of its own, so every module runs once.
 * @param {{ outdir: string, production?: boolean, root?: string }} options
 * @returns {import('esbuild').BuildOptions}
 */
export function hostBuildOptions({ outdir, production = false, root = '.' }) {
  return {
    entryPoints: { extension: `${root}/src/extension.ts`, services: `${root}/src/services.ts` },
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: '[name]-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    external: ['vscode'],
    alias: Object.fromEntries(Object.entries(wsClientAlias).map(([name, file]) => [name, `${root}/${file}`])),
    // the CommonJS packages bundled here (ws) require Node's modules
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    sourcemap: !production,
    minify: production,
    metafile: true,
    logLevel: 'warning',
    plugins: [packagesLeftOut],
  };
}
