// Environment the drivers give the extension host (set on code-server or passed by test-electron).

export const REPORT_PATH_ENV = 'OPENHANDS_TEST_REPORT';
export const TEST_SERVER_URL_ENV = 'OPENHANDS_TEST_SERVER_URL';
/** Runs only the tests whose full title matches (a developer shortcut; code-server passes its environment on): `OPENHANDS_TEST_GREP=steering npm run test:vscode`. */
export const TEST_GREP_ENV = 'OPENHANDS_TEST_GREP';

/** Set by the driver for its second VS Code, whose folder is untrusted: only test/integration/restricted/ runs there. */
export const RESTRICTED_MODE_ENV = 'OPENHANDS_TEST_RESTRICTED';

/**
 * Set by the driver for its third VS Code, whose workspace's one folder is on a virtual file system
 * (memfs:, served by test/integration/virtualFolder/memfs): only test/integration/virtualFolder/ runs there.
 */
export const VIRTUAL_FOLDER_ENV = 'OPENHANDS_TEST_VIRTUAL_FOLDER';

export const EXTENSION_ID = 'openhands-community.openhands-vscode';

/** The seeded test server the suite may talk to; tests that need it fail loudly when it is unset. */
export function testServerUrl(): string {
  const url = process.env[TEST_SERVER_URL_ENV];
  if (!url) throw new Error(`${TEST_SERVER_URL_ENV} is not set: run the suite through npm run test:vscode`);
  return url;
}
