// Finding an OpenHands on this machine, and starting one when none runs.
import * as vscode from 'vscode';
import type { Log } from '../../core/log';
import { testServer, type ServerTestResult } from '../../state/serverTest';

/** Where OpenHands listens when started as documented (3000), behind its dev proxy (3001), or by hand. */
export const LOCAL_PORTS = [3000, 3001, 8000, 8080] as const;
/** The documented way to start the OpenHands web app on this machine (needs uv and Docker). */
export const START_COMMAND = 'uvx --python 3.12 openhands serve';
export const START_GUIDE = 'https://docs.openhands.dev/openhands/usage/run-openhands/local-setup';

/** The first local port where OpenHands answers (all asked at once, each briefly); undefined when none. */
export async function findLocalServer(
  log: Log,
  ports: readonly number[] = LOCAL_PORTS,
): Promise<{ url: string; result: ServerTestResult } | undefined> {
  const tests = await Promise.all(
    ports.map(async (port) => {
      const url = `http://localhost:${port}`;
      // a port where nothing listens is refused at once; a real OpenHands may take seconds to answer first
      const result = await testServer({ url, authHeader: 'X-Session-API-Key' }, { log, timeoutMs: 8_000 });
      return { url, result };
    }),
  );
  // only a server that says it is OpenHands: another local service never gets a key typed for it
  return tests.find(({ result }) => 'saysOpenHands' in result && result.saysOpenHands === true);
}

/**
 * Starts OpenHands in a terminal the user sees (nothing runs hidden), then waits, with a
 * cancellable notification, until it answers on its port.
 */
export async function startLocalServer(
  log: Log,
): Promise<{ url: string; result: ServerTestResult } | undefined> {
  const terminal = vscode.window.createTerminal({ name: vscode.l10n.t('OpenHands server') });
  terminal.show();
  terminal.sendText(START_COMMAND);
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t(
        'Waiting for OpenHands to start on http://localhost:3000 (the first start downloads it)…',
      ),
      cancellable: true,
    },
    async (_progress, token) => {
      const deadline = Date.now() + 10 * 60_000;
      while (!token.isCancellationRequested && Date.now() < deadline) {
        const found = await findLocalServer(log, [3000]);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 3_000));
      }
      return undefined;
    },
  );
}
