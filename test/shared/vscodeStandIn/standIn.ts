// What a test reaches the stand-in through: the scripted user, the settings, the registry and the
// records of what the code did, and `resetStandIn` (register.ts runs it before every test).
import { commands } from './commands';
import { envRecord, resetEnv } from './env';
import { listenerErrors } from './events';
import { prompts } from './prompts';
import { settings } from './settings';
import { resetWindow, windowRecord } from './window';

export { MemoryMemento, MemorySecretStorage } from './storage';
export type { Asked, PromptKind } from './prompts';
export { commands, envRecord, listenerErrors, prompts, settings, windowRecord };

/** A fresh VS Code: no settings, commands, prompts, items or records left from an earlier test. */
export function resetStandIn(): void {
  prompts.reset();
  settings.reset();
  commands.reset();
  resetWindow();
  resetEnv();
  listenerErrors.length = 0;
}
