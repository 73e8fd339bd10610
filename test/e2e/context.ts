// What every UI step gets from the driver.
import type { Page } from 'playwright-core';

export interface E2EContext {
  page: Page;
  /** The workbench URL with the extension loaded in development mode. */
  workbenchUrl: string;
  /** The seeded test server the extension is configured to use (`openhands.serverUrl`). */
  serverUrl: string;
  /** The folder the workbench has open (on disk), for files a step opens in the editor. */
  workspaceFolder: string;
  /** The user settings.json of the workbench (on the code-server side), for edits as a user makes them by hand. */
  userSettingsFile: string;
  /** Where the exports probe (a second extension) records what OpenHands' activate() gave it. */
  exportsProbeFile: string;
  /**
   * The test server again, through a relay on this machine's non-loopback address: plain http:// to
   * "another machine" for the extension. Undefined when the machine has loopback only.
   */
  lanServerUrl: string | undefined;
  /** Saves an extra PNG mid-step (the runner already saves one at the end of every step). */
  screenshot(name: string): Promise<string>;
}
