// What the webview pages hold (scripts/build/pages.mjs, built here in memory as `npm run build` builds
// them): a page runs in Chromium, so nothing of the extension host may reach it, neither its modules
// (the client, git's side of a change, state, the commands and trees) nor the packages it needs Node for.
import * as assert from 'node:assert/strict';
import * as esbuild from 'esbuild';
import { pageBuildOptions } from '../../../scripts/build/pages.mjs';
import { REPOSITORY_ROOT } from '../../shared/repository';

const ROOT = REPOSITORY_ROOT;
const OUTDIR = 'out/page-bundles-test';

/** Sources of the host: none may be in a page. */
const HOST_ONLY = [
  'src/api/',
  'src/changes/',
  'src/state/',
  'src/core/',
  'src/commands/',
  'src/views/',
  'src/conversations/',
  'src/shell/',
  'src/services.ts',
  'src/extension.ts',
];
/** Packages only the host runs, by their folder (node_modules may be a link: esbuild names its target). */
const HOST_PACKAGES = /(^|\/)node_modules\/(axios|ws)\//;
/** A webview's extension side (`src/webviews/<webview>/host/`). */
const WEBVIEW_HOST = /^src\/webviews\/[^/]+\/host\//;

describe('page bundles (build)', function () {
  this.timeout(60_000);
  let metafile: esbuild.Metafile;

  before(async () => {
    const result = await esbuild.build({
      ...pageBuildOptions({ outdir: OUTDIR, production: true }),
      absWorkingDir: ROOT,
      write: false,
      logLevel: 'silent',
    });
    metafile = result.metafile ?? assert.fail('esbuild wrote no metafile');
  });

  /**
   * Every module a page imports, transitively, from its entry: what esbuild loaded for it, whether or
   * not tree shaking left any of it in the output (a module imported for one constant is still the
   * host's code reaching the page).
   */
  function pageInputs(entry: string): string[] {
    const seen = new Set<string>();
    const pending = [entry];
    for (let input = pending.pop(); input !== undefined; input = pending.pop()) {
      if (seen.has(input)) continue;
      seen.add(input);
      const module = metafile.inputs[input] ?? assert.fail(`esbuild did not load ${input}`);
      for (const imported of module.imports) if (!imported.external) pending.push(imported.path);
    }
    return [...seen].sort();
  }

  const hostInputs = (inputs: string[]) =>
    inputs.filter(
      (input) =>
        HOST_ONLY.some((prefix) => input.startsWith(prefix)) ||
        WEBVIEW_HOST.test(input) ||
        HOST_PACKAGES.test(input),
    );

  it('the MCP form’s page imports nothing of the host', () => {
    const inputs = pageInputs('src/webviews/mcpForm/webview/main.ts');
    // what the page masks credentials with, and the shared chunk: the walk above reaches both
    assert.ok(inputs.includes('src/webviews/mcpForm/shared/credentials.ts'), inputs.join('\n'));
    assert.ok(
      inputs.some((input) => /(^|\/)node_modules\/lit-html\//.test(input)),
      inputs.join('\n'),
    );
    assert.deepEqual(hostInputs(inputs), []);
  });

  it('the conversation panel’s page imports nothing of the host', () => {
    const inputs = pageInputs('src/webviews/conversation/webview/main.ts');
    assert.ok(inputs.includes('src/webviews/conversation/webview/main.ts'), inputs.join('\n'));
    assert.ok(
      inputs.some((input) => /(^|\/)node_modules\/marked\//.test(input)),
      inputs.join('\n'),
    );
    assert.deepEqual(hostInputs(inputs), []);
  });

  it('the Model page imports nothing of the host', () => {
    const inputs = pageInputs('src/webviews/modelForm/webview/main.ts');
    assert.ok(inputs.includes('src/webviews/modelForm/shared/protocol.ts'), inputs.join('\n'));
    assert.deepEqual(hostInputs(inputs), []);
  });
});
