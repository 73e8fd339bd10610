// What the host loads when (scripts/build/host.mjs, built here in memory as `npm run package` builds
// it): the entry holds only what activation registers; the services, loaded at first use, hold
// neither ws nor git's side of a change, which load from bundles of their own when first needed.
import * as assert from 'node:assert/strict';
import * as esbuild from 'esbuild';
import { hostBuildOptions } from '../../../scripts/build/host.mjs';
import { REPOSITORY_ROOT } from '../../shared/repository';

const ROOT = REPOSITORY_ROOT;

describe('host bundles (build)', function () {
  this.timeout(60_000);
  let metafile: esbuild.Metafile;

  before(async () => {
    const result = await esbuild.build({
      ...hostBuildOptions({ outdir: 'dist', production: true }),
      absWorkingDir: ROOT,
      write: false,
      logLevel: 'silent',
    });
    metafile = result.metafile ?? assert.fail('esbuild wrote no metafile');
  });

  function bundle(name: string): esbuild.Metafile['outputs'][string] {
    return metafile.outputs[`dist/${name}`] ?? assert.fail(`no dist/${name}`);
  }
  /** Sources, packages by folder (`node_modules/ws/`), stand-ins of what is left out dropped. */
  const sources = (name: string) =>
    Object.keys(bundle(name).inputs).filter((input) => !input.startsWith('left-out:'));
  /** The other bundles it requires. */
  const requires = (name: string) =>
    bundle(name)
      .imports.filter((imported) => imported.external && imported.path.startsWith('./'))
      .map((imported) => imported.path);

  it('activation loads the entry and src/shell only, under 30 KB, and requires the services', () => {
    assert.deepEqual(
      sources('extension.js').filter(
        (input) => input !== 'src/extension.ts' && !input.startsWith('src/shell/'),
      ),
      [],
    );
    assert.ok(bundle('extension.js').bytes < 30 * 1024, `${bundle('extension.js').bytes} bytes`);
    assert.deepEqual(requires('extension.js'), ['./services.js']);
  });

  it('the services hold neither ws nor git’s side of a change, and require each where it is needed', () => {
    const inServices = sources('services.js');
    assert.ok(inServices.includes('src/api/client.ts'));
    assert.deepEqual(
      inServices.filter((input) => input.startsWith('node_modules/ws/') || input.startsWith('src/changes/')),
      [],
    );
    assert.deepEqual(requires('services.js').sort(), ['./changes.js', './ws.js']);
  });

  it('ws.js holds ws’s client, changes.js src/changes, and nothing else', () => {
    assert.deepEqual(
      sources('ws.js').filter((input) => !input.startsWith('node_modules/ws/lib/')),
      [],
    );
    assert.ok(sources('ws.js').includes('node_modules/ws/lib/websocket.js'));
    assert.ok(!sources('ws.js').includes('node_modules/ws/lib/websocket-server.js'));
    assert.deepEqual(
      sources('changes.js').filter((input) => !input.startsWith('src/changes/')),
      [],
    );
  });
});
