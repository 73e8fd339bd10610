// Child processes in their own process group, ended by pid (never by name): code-server forks an
// extension host and helpers, and killing the group takes all of them down together.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export function spawnGroup(command: string, args: string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  if (child.pid === undefined) throw new Error(`could not start ${command}`);
  return child;
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to the whole group, SIGKILL after `graceMs`; resolves once the group is gone. */
export async function killGroup(pid: number, graceMs = 3000): Promise<void> {
  if (!groupAlive(pid)) return;
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + graceMs;
  while (groupAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (groupAlive(pid)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone between the check and the kill.
    }
  }
}
