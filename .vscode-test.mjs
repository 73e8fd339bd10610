// @vscode/test-cli configuration, for contributors with desktop VS Code and internet access (it
// downloads VS Code; the offline CI machines use `npm run test:vscode` with code-server instead).
//
//   npx tsx scripts/vscode/build-suite.ts          # dist/extension.js + out/test/integration/
//   npm run server -- --port 3000 --seed 25        # in another terminal: the seeded test server
//   npx vscode-test                                # @vscode/test-cli needs Node >= 22
//
// `npx tsx scripts/vscode/run-electron.ts` does all three in one go through @vscode/test-electron.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defineConfig } from '@vscode/test-cli';

const serverUrl = process.env.OPENHANDS_TEST_SERVER_URL ?? 'http://127.0.0.1:3000';
const runDir = path.resolve('.vscode-test', 'runs', 'test-cli');
const userDataDir = path.join(runDir, 'user-data');
const workspace = path.join(runDir, 'workspace');

// A fresh profile that points the extension at the test server, as the code-server driver does.
fs.rmSync(runDir, { recursive: true, force: true });
fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
fs.mkdirSync(workspace, { recursive: true });
fs.writeFileSync(
  path.join(userDataDir, 'User', 'settings.json'),
  JSON.stringify({
    'openhands.serverUrl': serverUrl,
    'update.mode': 'none',
    'telemetry.telemetryLevel': 'off',
  }),
);

export default defineConfig({
  files: 'out/test/integration/**/*.test.js',
  workspaceFolder: workspace,
  launchArgs: ['--user-data-dir', userDataDir, '--disable-extensions', '--disable-workspace-trust'],
  env: { OPENHANDS_TEST_SERVER_URL: serverUrl },
  mocha: { ui: 'bdd', timeout: 20_000 },
});
