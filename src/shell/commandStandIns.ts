import * as vscode from 'vscode';

/**
 * Stand-ins for the contributed commands until the services load: a command run before then loads
 * them (which drops the stand-ins and registers the real commands), then runs again, now for real.
 */
export function registerCommandStandIns(
  commandIds: readonly string[],
  load: () => Promise<unknown>,
): vscode.Disposable {
  const standIns = commandIds.map((id) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      await load();
      return vscode.commands.executeCommand(id, ...args);
    }),
  );
  return new vscode.Disposable(() => standIns.forEach((standIn) => standIn.dispose()));
}
