// Runs scripts/provision-vscode.sh (a no-op in well under a second once everything is installed).
import { spawnSync } from 'node:child_process';
import { PROVISION_SCRIPT, ROOT } from './paths';

export function provision(): void {
  const result = spawnSync('bash', [PROVISION_SCRIPT], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`provisioning failed (exit ${result.status ?? result.signal})`);
}
