// How the extension host code is bundled: esbuild.mjs builds dist/ with these options, and a unit
// test builds the same way in memory to check what loads when.
import { packagesLeftOut, wsClientAlias } from './packagesLeftOut.mjs';

/**
 * Bundles of their own, each `require()`d where it is first needed: the specifier the source
 * requires → the file it is at run time, next to the bundle that requires it. The entry loads the
 * services on first use; the services load ws when the first event socket opens, and git's side
 * of a change when one is first applied or saved.
 */
const LOADED_LATER = { './services.js': './services.js', ws: './ws.js', '../../changes': './changes.js' };

/** @type {import('esbuild').Plugin} */
const bundlesLoadedLater = {
  name: 'bundles-loaded-later',
  setup(build) {
    const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    const specifiers = Object.keys(LOADED_LATER).map(escape).join('|');
    build.onResolve({ filter: new RegExp(`^(${specifiers})$`) }, (args) => ({
      path: LOADED_LATER[/** @type {keyof typeof LOADED_LATER} */ (args.path)],
      external: true,
    }));
  },
};

/**
 * The host bundles share no module: a file in two would run twice, with two copies of its state.
 * @type {import('esbuild').Plugin}
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
        return { errors: [{ text: `bundled in two host bundles: ${[...new Set(twice)].join(', ')}` }] };
    });
  },
};

/**
 * extension.js (the small entry VS Code loads), services.js (the rest, loaded on first use), and what
 * the services load when first needed: ws.js (ws's client) and changes.js (git's side of a change).
 * CommonJS entry points, not code splitting: esbuild splits only ES modules, and VS Code takes
 * about 25 ms more of the extension host's CPU to load an ES-module extension (its `vscode` module
 * for them), more than the whole activation budget; split files also compress worse in the VSIX.
 * @param {{ outdir: string, production?: boolean, root?: string }} options
 * @returns {import('esbuild').BuildOptions}
 */
export function hostBuildOptions({ outdir, production = false, root = '.' }) {
  return {
    entryPoints: {
      extension: `${root}/src/extension.ts`,
      services: `${root}/src/services.ts`,
      ws: `${root}/${wsClientAlias.ws}`,
      changes: `${root}/src/changes/index.ts`,
    },
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    sourcemap: !production,
    minify: production,
    metafile: true,
    logLevel: 'warning',
    plugins: [packagesLeftOut, bundlesLoadedLater, nothingBundledTwice],
  };
}
