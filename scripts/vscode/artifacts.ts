// Keeps what explains a run (logs, reports) under .artifacts/<run>/ after the scratch folders are gone.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ARTIFACTS_DIR } from './paths';

/** `.artifacts/<name>/`, emptied so files from an older run are never mistaken for this one's. */
export function freshArtifactsDir(name: string): string {
  const dir = path.join(ARTIFACTS_DIR, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Copies code-server's log folder (server, remote agent, extension host, output channels). */
export function collectCodeServerLogs(userDataDir: string, targetDir: string): void {
  const logs = path.join(userDataDir, 'logs');
  if (fs.existsSync(logs)) fs.cpSync(logs, path.join(targetDir, 'vscode-logs'), { recursive: true });
}
