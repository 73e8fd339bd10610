/**
 * git and the patch checks (`src/changes`): a bundle of their own (dist/changes.js), loaded the first
 * time a change is applied or saved, not with the tree. Everything else here imports only their types.
 */
export function localChanges(): typeof import('../../changes') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a bundle of its own, loaded on first need
  return require('../../changes') as typeof import('../../changes');
}
