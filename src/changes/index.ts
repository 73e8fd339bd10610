// The local side of an agent's change, as the commands use it. The build makes this folder a bundle
// of its own (dist/changes.js), required the first time a change is applied or saved as a patch.
export * from './patchApply';
export { isIgnoredFolder, openLocalRepository, type LocalRepository } from './localRepository';
export { auditPatch, patchWarningLines } from './patchAudit';
export {
  readLocalState,
  type LocalState,
  type FileChange,
  type Upstream,
  type Submodule,
} from './localState';
export {
  buildHandoff,
  removeHandoff,
  DEFAULT_MAX_HANDOFF_BYTES,
  type Handoff,
  type HandoffOptions,
} from './handoffBundle';
export * from './handoffManifest';
export {
  parseVerifyOutput,
  replayScript,
  replaySteps,
  VERIFY_COMMAND,
  type ReplayPlaces,
  type ReplayStep,
} from './handoffReplay';
export {
  BranchCheckoutError,
  checkOutRemoteBranch,
  checkedBranchName,
  uncommittedFiles,
  type CheckoutOutcome,
} from './branchCheckout';
export {
  deliverHandoff,
  HandoffDeliveryError,
  type Delivered,
  type DeliveryOptions,
  type DeliveryStep,
} from './handoffDelivery';
export { handoffMessage } from './handoffMessage';
export { pushToUpstream, PushFailedError } from './handoffPush';
export { baseSinceHandoff, holdsCommit, type BaseSinceHandoff, type HandedOverBase } from './handoffBase';
