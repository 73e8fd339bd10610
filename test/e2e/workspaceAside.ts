// The workbench's folder made into another repository for a step (a clone of a sandbox, a user's
// repository with local work): what earlier steps left there is set aside and put back after.
import * as fs from 'node:fs';
import * as path from 'node:path';

export async function withWorkspaceAside(
  workspaceFolder: string,
  prepare: () => void,
  body: () => Promise<void>,
): Promise<void> {
  const aside = fs.mkdtempSync(path.join(path.dirname(workspaceFolder), 'workspace-aside-'));
  const moveAll = (from: string, to: string) => {
    for (const entry of fs.readdirSync(from)) fs.renameSync(path.join(from, entry), path.join(to, entry));
  };
  moveAll(workspaceFolder, aside);
  try {
    prepare();
    await body();
  } finally {
    for (const entry of fs.readdirSync(workspaceFolder))
      fs.rmSync(path.join(workspaceFolder, entry), { recursive: true, force: true });
    moveAll(aside, workspaceFolder);
    fs.rmSync(aside, { recursive: true, force: true });
  }
}
