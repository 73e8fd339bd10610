// Bundles the extension host code and the webview scripts. `--production` minifies for packaging;
// `--watch` rebuilds on change.
import * as fs from 'node:fs';
import * as esbuild from 'esbuild';
import { writeCodicons } from './scripts/build/codicons.mjs';
import { hostBuildOptions } from './scripts/build/host.mjs';
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

const host = hostBuildOptions({ outdir: 'dist', production });

/** @type {esbuild.BuildOptions[]} */
const builds = [
  {
    // The host: extension.js, services.js, ws.js and changes.js (scripts/build/host.mjs).
    ...host,
    plugins: [...(host.plugins ?? []), metafileForBench],
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
