// What the host loads when (scripts/build/host.mjs, built here in memory as `npm run package` builds
// it): the entry holds only what activation registers, the first use none of what only a panel, the
// MCP form, the connect flow or Apply needs, and every module is in exactly one file.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { hostBuildOptions } from '../../../scripts/build/host.mjs';

const ROOT = path.resolve(__dirname, '../../..');
const OUT = 'dist';

/** Sources only some uses need, each imported where it is first needed: never with the first use. */
const LATER = [
  'node_modules/ws/lib/websocket.js',
  'src/changes/patchApply.ts',
  'src/commands/applyChanges.ts',
  'src/commands/servers/connectFlow.ts',
  'src/webviews/conversation/host/panel.ts',
  'src/webviews/conversation/host/controller.ts',
  'src/webviews/conversation/host/transcript.ts',
  'src/webviews/mcpForm/host/formHost.ts',
  'src/webviews/mcpForm/host/formController.ts',
  'src/webviews/mcpForm/shared/uiStrings.ts',
  'src/api/mcpProbe.ts',
];

describe('host bundles (build)', function () {
  this.timeout(60_000);
  let metafile: esbuild.Metafile;

  before(async () => {
    const result = await esbuild.build({
      ...hostBuildOptions({ outdir: OUT, production: true }),
      absWorkingDir: ROOT,
      write: false,
      logLevel: 'silent',
    });
    metafile = result.metafile ?? assert.fail('esbuild wrote no metafile');
  });

  /** The files an output imports with `import` statements, itself included, transitively. */
  function loadedWith(file: string, seen = new Set<string>()): Set<string> {
    const output = metafile.outputs[file];
    if (!output || seen.has(file)) return seen;
    seen.add(file);
    for (const imported of output.imports) {
      if (imported.kind === 'import-statement' && !imported.external) loadedWith(imported.path, seen);
    }
    return seen;
  }

  function inputsOf(files: Iterable<string>): string[] {
    return [...files].flatMap((file) => Object.keys(metafile.outputs[file]?.inputs ?? {}));
  }

  it('activation loads the entry and src/shell only, under 30 KB', () => {
    const files = loadedWith(`${OUT}/extension.mjs`);
    const foreign = inputsOf(files).filter(
      (input) => input !== 'src/extension.ts' && !input.startsWith('src/shell/'),
    );
    assert.deepEqual(foreign, []);
    const bytes = [...files].reduce((sum, file) => sum + (metafile.outputs[file]?.bytes ?? 0), 0);
    assert.ok(bytes < 30 * 1024, `${bytes} bytes`);
  });

  it('the first use loads none of what only a panel, the form, the connect flow or Apply needs', () => {
    const inputs = new Set(inputsOf(loadedWith(`${OUT}/services.mjs`)));
    assert.ok(inputs.has('src/services.ts') && inputs.has('src/api/client.ts'));
    assert.deepEqual(
      LATER.filter((file) => inputs.has(file)),
      [],
    );
  });

  it('each of those is in a chunk a dynamic import reaches', () => {
    const dynamic = new Set(
      Object.values(metafile.outputs).flatMap((output) =>
        output.imports
          .filter((imported) => imported.kind === 'dynamic-import')
          .map((imported) => imported.path),
      ),
    );
    const reached = new Set([...dynamic].flatMap((file) => inputsOf(loadedWith(file))));
    assert.deepEqual(
      LATER.filter((file) => !reached.has(file)),
      [],
    );
  });

  it('puts every module in exactly one file', () => {
    const counts = new Map<string, number>();
    for (const input of inputsOf(Object.keys(metafile.outputs)))
      counts.set(input, (counts.get(input) ?? 0) + 1);
    assert.deepEqual(
      [...counts].filter(([, count]) => count > 1),
      [],
    );
  });
});
