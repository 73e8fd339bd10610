// How the webview pages are bundled: esbuild.mjs builds dist/webview with these options, and the page
// tests build the same way into a folder of their own.

/** Each page's script, by the name of its bundle (`<name>.js` and `<name>.css` in the output folder). */
const PAGE_ENTRIES = {
  mcpForm: 'src/webviews/mcpForm/webview/main.ts',
  modelForm: 'src/webviews/modelForm/webview/main.ts',
  conversation: 'src/webviews/conversation/webview/main.ts',
};

/**
 * Both pages in one build, as ES modules split by esbuild: what both import (lit, vscode-elements, zod)
 * goes into one `shared-<hash>.js` that each page's module imports, instead of a copy in each page
 * (about 70 KB of the two pages' 315 KB). Webviews load the page as `<script type="module">`; the
 * shared chunk comes under the same nonce (a module's imports are fetched with its nonce).
 * @param {{ outdir: string, production?: boolean, root?: string }} options
 * @returns {import('esbuild').BuildOptions}
 */
export function pageBuildOptions({ outdir, production = false, root = '.' }) {
  return {
    entryPoints: Object.fromEntries(
      Object.entries(PAGE_ENTRIES).map(([name, file]) => [name, `${root}/${file}`]),
    ),
    outdir,
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'esm',
    splitting: true,
    chunkNames: 'shared-[hash]',
    sourcemap: !production,
    minify: production,
    metafile: true,
    logLevel: 'warning',
  };
}
