// The least the trees' first rows can load: what reads the settings and the key, lists, polls and
// draws the two trees and the status bar, and nothing else (no command, panel, form or feed).
// `npm run bench` bundles it as esbuild.mjs bundles the host and prints its size: however
// services.js were split, the first use could not load less.
export { Log } from '../../src/core/log';
export { SecretsManager } from '../../src/core/secretsManager';
export { Connection } from '../../src/state/connection';
export { OpenHandsStore } from '../../src/state/store';
export { RefreshScheduler } from '../../src/state/refreshScheduler';
export { ConversationTreeProvider, SandboxTreeProvider } from '../../src/views/treeProviders';
export { StatusBar } from '../../src/views/statusBar';
export { ViewPresenter } from '../../src/views/viewPresenter';
