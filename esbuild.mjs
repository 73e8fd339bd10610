// Bundles the extension host code and the webview scripts. `--production` minifies for packaging;
// `--watch` rebuilds on change.
import * as fs from 'node:fs';
import * as esbuild from 'esbuild';
import { writeCodicons } from './scripts/build/codicons.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

let codiconsWritten = Promise.resolve();
/**
 * vscode-elements links the codicon stylesheet by id, so it ships as files next to the page bundles:
 * cut to the icons the pages name, once both pages are built (one after another in watch mode).
 * @type {esbuild.Plugin}
 */
const codiconsForPages = {
  name: 'codicons-for-pages',
  setup(build) {
    build.onEnd(() => {
      codiconsWritten = codiconsWritten.then(() =>
        writeCodicons({
          pages: ['mcpForm', 'conversation'].flatMap((page) =>
            ['js', 'css'].map((kind) => `dist/webview/${page}.${kind}`),
          ),
          outDir: 'dist/webview',
        }),
      );
      return codiconsWritten.then(() => undefined);
    });
  },
};

/**
 * Packages axios imports that the host never runs, each replaced by the little its import needs.
 * - `form-data` (with mime-db: 160 KB of the 400 KB bundle) is for multipart bodies. We send none, and
 *   when the import is null axios falls back to Node's own global FormData, exactly as its browser build
 *   does (see axios/package.json "browser").
 * - `follow-redirects` (and its `debug`: 19 KB) follows redirects. Our transport never follows one
 *   (`maxRedirects: 0`, the key must not travel to another host), so axios uses Node's own http and https.
 */
const LEFT_OUT = {
  'form-data': 'export default null;',
  'follow-redirects': 'export default { http: undefined, https: undefined };',
};

/** @type {esbuild.Plugin} */
const packagesLeftOut = {
  name: 'packages-left-out',
  setup(build) {
    const names = Object.keys(LEFT_OUT).join('|');
    build.onResolve({ filter: new RegExp(`^(${names})$`) }, (args) => ({
      path: args.path,
      namespace: 'left-out',
    }));
    build.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => ({
      contents: LEFT_OUT[/** @type {keyof typeof LEFT_OUT} */ (args.path)],
      loader: 'js',
    }));
  },
};

/**
 * The entry loads dist/services.js with require() on first use: it stays a file of its own.
 * @type {esbuild.Plugin}
 */
const servicesLoadedLater = {
  name: 'services-loaded-later',
  setup(build) {
    build.onResolve({ filter: /^\.\/services\.js$/ }, () => ({ path: './services.js', external: true }));
  },
};

/**
 * The two host bundles share no module: a file in both would run twice, with two copies of its state.
 * @type {esbuild.Plugin}
 */
const nothingBundledTwice = {
  name: 'nothing-bundled-twice',
  setup(build) {
    build.onEnd((result) => {
      if (!result.metafile) return;
      const inputs = Object.values(result.metafile.outputs).map((output) => Object.keys(output.inputs));
      const twice = inputs.flatMap((files, i) =>
        files.filter((file) => inputs.some((other, j) => j !== i && other.includes(file))),
      );
      if (twice.length > 0)
        return { errors: [{ text: `bundled in both host bundles: ${[...new Set(twice)].join(', ')}` }] };
    });
  },
};

/**
 * The production build leaves the host bundles' metafile in out/ (not shipped): `npm run bench`
 * prints each dependency's share from it.
 * @type {esbuild.Plugin}
 */
const metafileForBench = {
  name: 'metafile-for-bench',
  setup(build) {
    build.onEnd((result) => {
      if (!production || !result.metafile) return;
      fs.mkdirSync('out', { recursive: true });
      fs.writeFileSync('out/host-bundles.meta.json', JSON.stringify(result.metafile));
    });
  },
};

/** @type {esbuild.BuildOptions[]} */
const builds = [
  {
    // The host: extension.js (the small entry VS Code loads) and services.js (everything else, loaded
    // on first use). Two entry points, not code splitting: splitting needs ESM, which VS Code 1.100
    // does not load for extensions.
    entryPoints: { extension: 'src/extension.ts', services: 'src/services.ts' },
    outdir: 'dist',
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    // the client only: the package's index adds its server and stream wrapper
    alias: { ws: './node_modules/ws/lib/websocket.js' },
    sourcemap: !production,
    minify: production,
    metafile: true,
    logLevel: 'warning',
    plugins: [packagesLeftOut, servicesLoadedLater, nothingBundledTwice, metafileForBench],
  },
  {
    // The MCP & Git Providers webview: browser code, one script and one stylesheet.
    entryPoints: { mcpForm: 'src/webviews/mcpForm/webview/main.ts' },
    outdir: 'dist/webview',
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
    plugins: [codiconsForPages],
  },
  {
    // The conversation panel's page: one script and one stylesheet (conversation.js, conversation.css).
    entryPoints: { conversation: 'src/webviews/conversation/webview/main.ts' },
    outdir: 'dist/webview',
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
    plugins: [codiconsForPages],
  },
];

if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
