// The DOM contract between the extension's tree views and these UI tests (VS Code 1.100 workbench).

/** Activity-bar entry of the "OpenHands" view container. */
export const OPENHANDS_ACTIVITY = '.activitybar .action-label[aria-label^="OpenHands"]';

/** View titles, as contributed in package.json (`openhands.conversations`, then `.sandboxes`). */
export const SANDBOXES_VIEW = 'Sandboxes';
export const CONVERSATIONS_VIEW = 'Conversations';

/** Every view is a `.pane` with a `.pane-header`; tree rows carry "label, description" in aria-label. */
export const PANE = '.pane';
export const PANE_HEADER = '.pane-header';
export const ROW = '.monaco-list-row';

/** Inline actions on a row (the command titles in package.json). */
export const PAUSE_SANDBOX = '.action-label[aria-label="Pause Sandbox"]';
export const RESUME_SANDBOX = '.action-label[aria-label="Resume Sandbox"]';
