// The local side of an agent's change, as the commands use it: imported the first time a change is
// applied or saved as a patch, so the build makes it a chunk of its own.
export * from './patchApply';
export { openLocalRepository, type LocalRepository } from './localRepository';
export { auditPatch, patchWarningLines } from './patchAudit';
