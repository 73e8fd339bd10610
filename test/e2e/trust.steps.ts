// What other extensions and the network get (issue 9): no API in `exports` outside the test suite,
// and an API key typed into "Set API Key…" goes to the configured server only.
import * as fs from 'node:fs';
import type { ProbeRecord } from './exports-probe/record';
import type { E2EContext } from './context';
import { answerInputBox, runCommand } from './palette';
import type { StepRunner } from './runner';
import { E2E_API_KEY, E2E_PLAIN_HTTP_API_KEY } from './secrets';
import { clearServerRequests, serverRequests } from './serverControl';
import { eventually } from './wait';
import { OPEN_WORKBENCH } from './workbench.steps';

export function trustSteps(runner: StepRunner, ctx: E2EContext): void {
  runner.step(
    'another extension that activates OpenHands gets no exports (no keys, no client)',
    async () => {
      // the probe extension (test/e2e/exports-probe) records what activate() gave it
      const record = await eventually(
        'the exports probe record',
        async () =>
          fs.existsSync(ctx.exportsProbeFile)
            ? (JSON.parse(fs.readFileSync(ctx.exportsProbeFile, 'utf8')) as ProbeRecord)
            : undefined,
        { timeoutMs: 15_000 },
      );
      if (!record.found) throw new Error('the probe did not find OpenHands');
      if (record.error) throw new Error(`activating OpenHands failed for the probe: ${record.error}`);
      if (record.exportsType !== 'undefined') {
        throw new Error(
          `OpenHands exports ${record.exportsType} (${record.exportedNames.join(', ')}) to other extensions`,
        );
      }
    },
    { needs: [OPEN_WORKBENCH] },
  );

  runner.step(
    'Set API Key…: typed into a password box, sent to the server in its header',
    async () => {
      await runCommand(ctx.page, 'OpenHands: Set API Key…');
      const input = ctx.page.locator('.quick-input-widget input.input');
      await input.waitFor({ state: 'visible', timeout: 5_000 });
      if ((await input.getAttribute('type')) !== 'password')
        throw new Error('the key box is not a password box');
      await clearServerRequests(ctx.serverUrl);
      await answerInputBox(ctx.page, E2E_API_KEY);
      await input.waitFor({ state: 'hidden', timeout: 5_000 });
      // a new key is a new connection: the visible views load again, with it
      await eventually(
        'a request carrying the API key',
        async () =>
          (await serverRequests(ctx.serverUrl)).some(
            (request) => request.headers['x-session-api-key'] === E2E_API_KEY,
          ) || undefined,
        {
          // what arrived, and whether each carried the key (never the key itself)
          lastSeen: async () =>
            (await serverRequests(ctx.serverUrl))
              .map(
                (r) =>
                  `${r.method} ${r.path} ${r.headers['x-session-api-key'] === E2E_API_KEY ? '(key)' : '(no key)'}`,
              )
              .join(', ') || 'no requests',
        },
      );
    },
    { needs: [OPEN_WORKBENCH] },
  );
}

/** Plain http:// to another machine: Set API Key asks first; Cancel stores and sends nothing, agreeing sends it. */
export function plainHttpSteps(runner: StepRunner, ctx: E2EContext): void {
  runner.step(
    'plain http:// to another machine: Set API Key asks first; Cancel sends nothing, Send over HTTP sends the key',
    async () => {
      const lanUrl = ctx.lanServerUrl;
      if (!lanUrl) {
        console.log('      (no non-loopback IPv4 address on this machine: nothing to check)');
        return;
      }
      const dialog = ctx.page.locator('.monaco-dialog-box');
      const input = ctx.page.locator('.quick-input-widget input.input');
      const keyRequests = async () =>
        (await serverRequests(ctx.serverUrl)).filter(
          (request) => request.headers['x-session-api-key'] === E2E_PLAIN_HTTP_API_KEY,
        ).length;
      const configureServer = async (url: string) => {
        await clearServerRequests(ctx.serverUrl);
        await runCommand(ctx.page, 'OpenHands: Configure Server…');
        await answerInputBox(ctx.page, url);
        // closed before the next command: its Escape would cancel a box still open
        await input.waitFor({ state: 'hidden', timeout: 5_000 });
        // the command is over once the extension talks to the new URL (the Host header names it)
        const host = new URL(url).host;
        await eventually(
          `a request to ${host}`,
          async () =>
            (await serverRequests(ctx.serverUrl)).some((request) => request.headers.host === host) ||
            undefined,
        );
      };
      let failure: unknown;
      try {
        await configureServer(lanUrl);

        // Cancel: no key box, nothing stored, nothing sent
        await runCommand(ctx.page, 'OpenHands: Set API Key…');
        await dialog.waitFor({ state: 'visible', timeout: 10_000 });
        const text = await dialog.innerText();
        if (!text.includes(`Send your OpenHands API key to ${lanUrl} unencrypted?`))
          throw new Error(`the dialog says "${text}"`);
        await ctx.screenshot('plain-http-key-warning');
        await dialog.locator('.monaco-button', { hasText: 'Cancel' }).click({ timeout: 5_000 });
        await dialog.waitFor({ state: 'hidden', timeout: 5_000 });
        if (await input.isVisible()) throw new Error('the key box opened after Cancel');

        // Send over HTTP: the key box, then the key reaches the server
        await runCommand(ctx.page, 'OpenHands: Set API Key…');
        await dialog.waitFor({ state: 'visible', timeout: 10_000 });
        await dialog.locator('.monaco-button', { hasText: 'Send over HTTP' }).click({ timeout: 5_000 });
        await answerInputBox(ctx.page, E2E_PLAIN_HTTP_API_KEY);
        await input.waitFor({ state: 'hidden', timeout: 5_000 });
        await eventually('a request carrying the key sent over plain http://', async () =>
          (await keyRequests()) > 0 ? true : undefined,
        );
      } catch (error) {
        failure = error;
      }
      // back to the loopback URL for the steps that follow (a dialog left open would block the palette)
      if (await dialog.isVisible()) await dialog.locator('.monaco-button', { hasText: 'Cancel' }).click();
      await configureServer(ctx.serverUrl).catch((error: unknown) => {
        failure ??= error;
      });
      if (failure) throw failure;
    },
    { needs: [OPEN_WORKBENCH] },
  );
}
