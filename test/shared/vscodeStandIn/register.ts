// Loaded by mocha before the tests (`.mocharc.json` `require`): the bare module id `vscode` resolves to the
// stand-in (index.ts) for every `require` tsx compiles `import … from 'vscode'` into, and each test starts
// with a fresh stand-in and ends with every scripted answer asked for.
import Module from 'node:module';
import * as path from 'node:path';
import { prompts, resetStandIn } from './standIn';

type ResolveFilename = (request: string, ...rest: unknown[]) => string;

const loader = Module as unknown as { _resolveFilename: ResolveFilename };
const resolveFilename = loader._resolveFilename;
const STAND_IN = path.join(__dirname, 'index.ts');

loader._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]): string {
  return request === 'vscode' ? STAND_IN : resolveFilename.call(this, request, ...rest);
};

export const mochaHooks = {
  beforeEach(): void {
    resetStandIn();
  },
  afterEach(this: Mocha.Context): void {
    // a test that failed has said what went wrong; what it left unasked says nothing more
    if (this.currentTest?.state !== 'passed') return;
    const unused = prompts.unused();
    if (unused.length) throw new Error(`answers scripted but never asked for: ${unused.join('; ')}`);
  },
};
