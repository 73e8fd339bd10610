// What the host bundles leave out of axios and ws: esbuild.mjs builds dist/ with this plugin, and the
// unit tests bundle the client with it to check that what is left still refuses what it must.

/**
 * Parts of axios and ws the host never runs, each replaced by the little its import needs.
 * - `form-data` (with mime-db: 160 KB of the 400 KB bundle) is for multipart bodies. We send none, and
 *   when the import is null axios falls back to Node's own global FormData, exactly as its browser build
 *   does (see axios/package.json "browser").
 * - `follow-redirects` (and its `debug`: 19 KB) follows redirects. Our transport never follows one
 *   (`maxRedirects: 0`, the key must not travel to another host), so axios uses Node's own http and https.
 * - `https-proxy-agent`, `proxy-from-env` and axios's `shouldBypassProxy` (with `debug` again: 18 KB)
 *   serve axios's own proxy from the environment, which the transport turns off (`proxy: false`): VS
 *   Code's proxy support decides for every request.
 * - axios's `fetch` and `xhr` adapters (16 KB with the helpers only they use): the transport asks for
 *   the `http` adapter by name.
 * - ws's `permessage-deflate` (6 KB with its limiter): the event socket offers no compression
 *   (`perMessageDeflate: false`), so ws only reads the extension's name, to refuse a compressed frame
 *   or a server that answers with an extension it was not offered.
 * Each key is a package name or the path a package imports it by, from the folder `importer` names.
 */
const LEFT_OUT = {
  'form-data': { contents: 'export default null;' },
  'follow-redirects': { contents: 'export default { http: undefined, https: undefined };' },
  'https-proxy-agent': { contents: 'export default class HttpsProxyAgent {}' },
  'proxy-from-env': { contents: "export function getProxyForUrl() { return ''; }" },
  '../helpers/shouldBypassProxy.js': {
    importer: 'node_modules/axios/lib/adapters/',
    contents: 'export default function shouldBypassProxy() { return true; }',
  },
  './fetch.js': {
    importer: 'node_modules/axios/lib/adapters/',
    contents: 'export const getFetch = () => undefined; export default undefined;',
  },
  './xhr.js': { importer: 'node_modules/axios/lib/adapters/', contents: 'export default false;' },
  './permessage-deflate': {
    importer: 'node_modules/ws/lib/',
    // CommonJS, as ws requires it
    contents: `module.exports = class PerMessageDeflate {
      static get extensionName() { return 'permessage-deflate'; }
      constructor() { throw new Error('permessage-deflate is not in this build: offer none'); }
    };`,
  },
};

/**
 * Resolves each part of LEFT_OUT, imported from its folder, to its stand-in.
 * @type {import('esbuild').Plugin}
 */
export const packagesLeftOut = {
  name: 'packages-left-out',
  setup(build) {
    const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    const names = Object.keys(LEFT_OUT).map(escape).join('|');
    build.onResolve({ filter: new RegExp(`^(${names})$`) }, (args) => {
      const part = LEFT_OUT[/** @type {keyof typeof LEFT_OUT} */ (args.path)];
      const importer = args.importer.split('\\').join('/');
      if ('importer' in part && !importer.includes(part.importer)) return undefined;
      return { path: args.path, namespace: 'left-out' };
    });
    build.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => ({
      contents: LEFT_OUT[/** @type {keyof typeof LEFT_OUT} */ (args.path)].contents,
      loader: 'js',
    }));
  },
};

/** ws's client alone: the package's index adds its server and stream wrapper, which the host never uses. */
export const wsClientAlias = { ws: './node_modules/ws/lib/websocket.js' };
