/**
 * The agent server's confirmation policies, as the extension sets them: `AlwaysConfirm` (every
 * action but a lone think or finish waits), `ConfirmRisky` (actions the model rates HIGH, or does not
 * rate, wait), `NeverConfirm`.
 */
import type { ConfirmationPolicy } from '../api';
import type { StartConfirmationPolicy } from '../core/config';

const ALWAYS: ConfirmationPolicy = { kind: 'AlwaysConfirm' };
const RISKY: ConfirmationPolicy = { kind: 'ConfirmRisky', threshold: 'HIGH', confirm_unknown: true };
const NEVER: ConfirmationPolicy = { kind: 'NeverConfirm' };

/** Confirmation mode on or off for one conversation: on is the setting's policy when it names one. */
export function confirmationPolicyFor(on: boolean, setting: StartConfirmationPolicy): ConfirmationPolicy {
  if (!on) return NEVER;
  return setting === 'risky' ? RISKY : ALWAYS;
}

/** The policy a conversation started from VS Code gets; undefined leaves it to the server's settings. */
export function startPolicy(setting: StartConfirmationPolicy): ConfirmationPolicy | undefined {
  switch (setting) {
    case 'always':
      return ALWAYS;
    case 'risky':
      return RISKY;
    case 'never':
      return NEVER;
    case 'server':
      return undefined;
  }
}
