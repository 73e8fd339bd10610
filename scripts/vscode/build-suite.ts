// `npx tsx scripts/vscode/build-suite.ts`: builds the extension and bundles the integration suite into
// out/test/integration/, for `npx vscode-test` (.vscode-test.mjs) on a desktop machine.
import { buildExtension, buildIntegrationSuite } from './build';

buildExtension();
void buildIntegrationSuite().then(
  () => console.log('built dist/extension.js and out/test/integration/'),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
