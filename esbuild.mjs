// Bundles the extension host code and the webview scripts. `--production` minifies for packaging;
// `--watch` rebuilds on change.
import * as fs from 'node:fs';
import * as esbuild from 'esbuild';
import { writeCodicons } from './scripts/build/codicons.mjs';
import { packagesLeftOut, wsClientAlias } from './scripts/build/packagesLeftOut.mjs';

/** ws's client module alone (see wsClientAlias). */
const wsClient = wsClientAlias.ws;
import { pageBuildOptions } from './scripts/build/pages.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/**
 * vscode-elements links the codicon stylesheet by id, so it ships as files next to the page bundles:
 * cut to the icons the built pages (their scripts, shared chunk and styles) name.
 * @type {esbuild.Plugin}
 */
const codiconsForPages = {
  name: 'codicons-for-pages',
  setup(build) {
    build.onEnd(async (result) => {
      if (!result.metafile) return;
      const pages = Object.keys(result.metafile.outputs).filter((file) => /\.(js|css)$/.test(file));
      await writeCodicons({ pages, outDir: build.initialOptions.outdir ?? 'dist/webview' });
    });
  },
};

/**
 * Bundles of their own, each `require()`d where it is first needed: the specifier the source
 * requires → the file it is at run time, next to the bundle that requires it. The entry loads the
 * services on first use; the services load ws when the first conversation is followed and git's
 * side of a change when one is first applied or saved.
 */
const LOADED_LATER = { './services.js': './services.js', ws: './ws.js', '../changes': './changes.js' };

/** @type {esbuild.Plugin} */
const bundlesLoadedLater = {
  name: 'bundles-loaded-later',
  setup(build) {
    build.onResolve({ filter: /^(\.\/services\.js|ws|\.\.\/changes)$/ }, (args) => ({
      path: LOADED_LATER[/** @type {keyof typeof LOADED_LATER} */ (args.path)],
      external: true,
    }));
  },
};

/**
 * The host bundles share no module: a file in two would run twice, with two copies of its state.
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
    // The host: extension.js (the small entry VS Code loads), services.js (the rest, loaded on first
    // use), and what the services load when first needed: ws.js (ws's client) and changes.js (git's
    // side of a change). Entry points, not code splitting: splitting needs ESM, which VS Code 1.100
    // does not load for extensions.
    entryPoints: {
      extension: 'src/extension.ts',
      services: 'src/services.ts',
      ws: wsClient,
      changes: 'src/changes/index.ts',
    },
    outdir: 'dist',
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    sourcemap: !production,
    minify: production,
    metafile: true,
    logLevel: 'warning',
    plugins: [packagesLeftOut, bundlesLoadedLater, nothingBundledTwice, metafileForBench],
  },
  {
    // The two webview pages (mcpForm, conversation): a module and a stylesheet each, and the chunk
    // both import (scripts/build/pages.mjs).
    ...pageBuildOptions({ outdir: 'dist/webview', production }),
    plugins: [codiconsForPages],
  },
];

if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
