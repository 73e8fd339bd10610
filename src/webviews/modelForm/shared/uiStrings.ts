/**
 * Every user-visible string of the Model page, in English, with `{0}`-style placeholders; those both
 * forms say alike come from the kit. The host passes each through `vscode.l10n.t` (`localizedStrings`
 * in `kit/host/localizedStrings.ts`) and sends the result to the page, so both sides speak the user's
 * language.
 */
import { FORM_PAGE_STRINGS, uiStringsSchema } from '../../kit/shared/uiStrings';

export { format } from '../../kit/shared/uiStrings';

export const ENGLISH_STRINGS = {
  ...FORM_PAGE_STRINGS,
  // page
  panelTitle: 'OpenHands: Model',
  title: 'Set Up the Model',
  openInBrowser: 'Open in Browser',
  loadProblem: 'Could not read the server\u2019s model settings: {0}',
  // readiness, in words
  readyUses: 'Ready: conversations use {0}.',
  readyNoSettings: 'No model is set up yet: choose a model, enter its key and save.',
  readyNoModel: 'No model is set: choose a model and save.',
  readyNoKey: 'No key: {0} needs an API key.',
  readyUnknown: 'This server keeps its model in its own web page.',
  // model
  modelHeading: 'Model',
  sourceCatalogue: 'From the server\u2019s list',
  sourceCustom: 'Custom model (OpenAI-compatible or local)',
  providerLabel: 'Provider',
  providerSearch: 'Search providers',
  modelLabel: 'Model',
  modelSearch: 'Search models',
  chooseProvider: 'Choose a provider first.',
  noMatches: 'Nothing matches.',
  moreMatches: '{0} more: type to narrow the list.',
  verifiedMark: 'verified',
  customModelLabel: 'Model name',
  customModelHelp: 'As LiteLLM names it, e.g. openai/my-model for an OpenAI-compatible server.',
  baseUrlLabel: 'Base URL',
  baseUrlHelp:
    'Where the model answers, e.g. http://127.0.0.1:8000/v1. Leave empty for the provider\u2019s own.',
  noCatalogue: 'This server offers no list of models: enter the model\u2019s name.',
  // key
  keyHeading: 'API key',
  keyLabel: 'Key',
  keyStored: 'A key is stored on the server. Leave this empty to keep it.',
  keyNotStored: 'No key is stored on the server.',
  keyHelp: 'Kept in VS Code Secret Storage and sent to the server when you save; never shown again.',
  // options
  optionsHeading: 'Agent options',
  confirmationLabel: 'Ask before the agent runs each action (confirmation mode)',
  condenserLabel: 'Summarise long conversations to fit the model\u2019s context (condenser)',
  budgetLabel: 'Max budget per task (dollars)',
  budgetHelp: 'Leave empty for no limit.',
  // test
  testHeading: 'Test this model',
  testNoRoute: 'The first conversation is the test: if the model fails, the conversation says so.',
  // outcome
  saved: 'Saved.',
  nothingChanged: 'Nothing changed: nothing was sent.',
  notSaved: 'Nothing was saved: {0} Your entries are kept; fix them and save again.',
  savedKeyNotKept: 'Saved on the server, but VS Code could not keep the key in Secret Storage.',
  readBackFailed: 'Saved, but the server could not be read back: reload to see what it holds.',
  // not offered
  notOfferedSettings:
    'This server keeps its model in its own web page: it cannot be set from VS Code. Open the server in the browser to set it.',
  // profiles
  profilesHeading: 'Profiles',
  profilesHelp:
    'A profile is a saved model, base URL and key. Activate one to make new conversations use it.',
  profilesNotOffered:
    'This server has no LLM profiles (they came with OpenHands 1.11): its single model is the one above.',
  profilesEmpty: 'No profiles saved yet.',
  profileActive: 'active',
  profileKeySet: 'key stored',
  profileNoModel: '(no model)',
  profileNameLabel: 'Profile name',
  profileSave: 'Save Current Settings as Profile',
  profileActivate: 'Activate',
  profileRename: 'Rename',
  profileRenameTo: 'New name for {0}',
  profileRenameConfirm: 'Rename',
  profileCancel: 'Cancel',
  profileDelete: 'Delete',
  profileActivateLabel: 'Activate {0}',
  profileRenameLabel: 'Rename {0}',
  profileDeleteLabel: 'Delete {0}',
  profileSaved: 'Saved the current settings as profile {0}.',
  profileActivated: 'Activated {0}: conversations now use {1}.',
  profileRenamed: 'Renamed {0} to {1}.',
  profileDeleted: 'Deleted profile {0}.',
  profileDeleteQuestion: 'Delete the profile {0}?',
  profileDeleteActive:
    'It is the active profile: the first profile left becomes active and its model is used; with none left, the settings keep their model.',
  profileDeleteInactive: 'The settings and the other profiles stay as they are.',
  profileDeleteNotDone: 'Nothing was deleted.',
  profileFailed: 'The profile was not changed: {0}',
  errProfileName: 'A profile name is 1 to 64 letters, digits, dots, dashes or underscores.',
  // validation
  errModelEmpty: 'Choose a model, or enter its name.',
  errModelSpaces: 'A model name cannot contain spaces.',
  errBaseUrl: 'Enter an http:// or https:// URL, e.g. http://127.0.0.1:8000/v1, or leave it empty.',
  errBudget: 'Enter an amount in dollars, e.g. 5 or 2.50, or leave it empty for no limit.',
  errKeySpaces: 'An API key cannot contain spaces.',
  errServerChanged: 'The server changed while the page was open: review the form and save again.',
} as const;

export type UiStringKey = keyof typeof ENGLISH_STRINGS;
export type UiStrings = Record<UiStringKey, string>;

export const UiStringsSchema = uiStringsSchema(ENGLISH_STRINGS);
