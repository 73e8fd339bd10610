// What other extensions and the network get (issue 9): no API in `exports` outside the test suite,
// and an API key typed into "Set API Key…" goes to the configured server only.
import * as fs from 'node:fs';
import type { ProbeRecord } from './exports-probe/record';
import type { E2EContext } from './context';
import { answerInputBox, runCommand } from './palette';
import type { StepRunner } from './runner';
import { E2E_API_KEY } from './secrets';
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
