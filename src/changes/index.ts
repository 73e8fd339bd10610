// The local side of an agent's change, as the commands use it. The build makes this folder a bundle
// of its own (dist/changes.js), required the first time a change is applied or saved as a patch.
export * from './patchApply';
export { openLocalRepository, type LocalRepository } from './localRepository';
export { auditPatch, patchWarningLines } from './patchAudit';
export {
  BranchCheckoutError,
  checkOutRemoteBranch,
  checkedBranchName,
  uncommittedFiles,
  type CheckoutOutcome,
} from './branchCheckout';
