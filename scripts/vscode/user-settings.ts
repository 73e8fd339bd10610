// The user settings a fresh VS Code profile starts with: no gallery, update, telemetry or welcome noise
// (the machine is offline, so those only produce errors and popups over what we screenshot), plus
// whatever the caller needs, e.g. `openhands.serverUrl`.
import * as fs from 'node:fs';
import * as path from 'node:path';

export type Settings = Record<string, unknown>;

export const QUIET_SETTINGS: Settings = {
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'telemetry.telemetryLevel': 'off',
  'workbench.enableExperiments': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.settings.enableNaturalLanguageSearch': false,
  'security.workspace.trust.enabled': false,
  'npm.fetchOnlinePackageInfo': false,
  'typescript.disableAutomaticTypeAcquisition': true,
  'git.autofetch': false,
  // The workspace lives inside this git repo (.vscode-test/); no "open parent repository?" toast.
  'git.openRepositoryInParentFolders': 'never',
  'chat.commandCenter.enabled': false,
  'window.restoreWindows': 'none',
};

/** Writes `<userDataDir>/User/settings.json`, where code-server reads the user's settings from. */
export function writeUserSettings(userDataDir: string, settings: Settings = {}): string {
  const file = path.join(userDataDir, 'User', 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ ...QUIET_SETTINGS, ...settings }, null, 2) + '\n');
  return file;
}
