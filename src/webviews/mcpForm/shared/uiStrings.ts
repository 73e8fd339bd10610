/**
 * Every user-visible string of the form, in English, with `{0}`-style placeholders; those both forms
 * say alike come from the kit. The host passes each through `vscode.l10n.t` (`localizedStrings` in
 * `kit/host/localizedStrings.ts`) and sends the result to the webview, so the validation rules, shared
 * by both sides, speak the user's language on both.
 */
import { FORM_PAGE_STRINGS, uiStringsSchema } from '../../kit/shared/uiStrings';

export { format } from '../../kit/shared/uiStrings';

export const ENGLISH_STRINGS = {
  ...FORM_PAGE_STRINGS,
  // page
  panelTitle: 'OpenHands: MCP & Git Providers',
  title: 'MCP & Git Providers',
  discard: 'Discard Changes',
  unsavedChanges: 'Unsaved changes',
  staleDraft:
    'The server\u2019s configuration changed while you were editing. Your edits are kept; discard them to see the new state.',
  loadProblem: 'Could not read the server\u2019s current state: {0}',
  // outcome
  tokensPart: 'Git providers',
  mcpPart: 'MCP servers',
  statusSynced: 'synced with the server',
  statusSyncedViaSettings: 'synced with the server (stored through its settings)',
  statusUnchanged: 'no changes',
  statusFailed: 'not saved: {0}',
  nothingSaved: 'Nothing was saved. Your changes stay in the form; save again to send them.',
  notSavedBanner:
    'Not everything was saved. Your changes stay in the form: fix what is marked, then save again.',
  // the check of MCP servers before a save
  checking: 'Checking MCP servers from VS Code…',
  checkOk: 'Reachable from VS Code; answers as MCP.',
  checkUnreachable: 'Could not reach {0} from VS Code: {1}.',
  checkNotMcp: 'Reached {0} from VS Code, but it does not answer as an MCP server: {1}.',
  checkSkipped: 'Not checked from VS Code: {0}.',
  checkQuestion: 'Some MCP servers did not answer from VS Code. Save anyway?',
  checkAdvice:
    'OpenHands fails every conversation start while an MCP server it cannot reach is configured. The sandbox may see another network than VS Code: save anyway only if it can reach these.',
  saveAnyway: 'Save Anyway',
  checkCancelled:
    'Nothing was saved: an MCP server did not answer from VS Code (see its entry). Fix it, or save again and choose Save Anyway.',
  // secrets
  secretSet: 'Set',
  secretUnset: 'Not set',
  secretWillClear: 'Will be removed on save',
  replace: 'Replace',
  clear: 'Clear',
  cancel: 'Cancel',
  setValue: 'Set…',
  undo: 'Undo',
  replaceLabel: 'Replace {0}',
  clearLabel: 'Clear {0}',
  setLabel: 'Set {0}',
  cancelLabel: 'Cancel editing {0}',
  undoLabel: 'Keep {0}',
  // providers
  providersHeading: 'Git providers',
  providersHelp:
    'Tokens are stored in VS Code Secret Storage and sent to the server only when you change them.',
  provider_github: 'GitHub',
  provider_gitlab: 'GitLab',
  provider_bitbucket: 'Bitbucket',
  provider_enterprise_sso: 'Enterprise SSO',
  tokenLabel: '{0} token',
  hostLabel: '{0} host',
  hostHelp: 'A host is needed only for a self-hosted instance, e.g. git.example.com.',
  serverSet: 'Set on the server',
  serverSetHost: 'Set on the server ({0})',
  serverNotSet: 'Not set on the server',
  // mcp
  mcpHeading: 'MCP servers',
  mcpHelp: 'API keys and environment values are stored in VS Code Secret Storage.',
  mcpEmpty: 'No MCP servers configured.',
  addSse: 'Add SSE Server',
  addShttp: 'Add HTTP Server',
  addStdio: 'Add stdio Server',
  kindSse: 'SSE server',
  kindShttp: 'Streamable HTTP server',
  kindStdio: 'stdio server',
  entryTitle: '{0} {1}',
  remove: 'Remove',
  removeLabel: 'Remove {0}',
  urlLabel: 'URL',
  apiKeyLabel: 'API key',
  timeoutLabel: 'Timeout (seconds)',
  timeoutHelp: 'Optional, 1–3600; the server uses 60 when empty.',
  nameLabel: 'Name',
  commandLabel: 'Command',
  commandHelp: 'A single executable, e.g. npx or uvx. Put its parameters in the arguments.',
  argsLabel: 'Arguments',
  argLabel: 'Argument {0}',
  addArg: 'Add Argument',
  envLabel: 'Environment',
  envNameLabel: 'Variable {0} name',
  envValueLabel: 'Variable {0} value',
  addEnv: 'Add Variable',
  envHidden:
    'OpenHands does not show the environment of a server set up outside VS Code. A save of MCP changes sends only the variables listed here: add the ones this server needs.',
  // validation
  errUrlEmpty: 'Enter a URL.',
  errUrlScheme: 'Use an http, https, ws or wss URL (e.g. https://mcp.example.com/sse).',
  errUrlHost: 'The URL needs a host, e.g. https://mcp.example.com/sse.',
  errUrlSpaces: 'A URL cannot contain spaces.',
  errUrlDuplicate: 'This URL is already used by another SSE or HTTP server.',
  errTimeout: 'Enter a whole number of seconds from 1 to 3600, or leave empty.',
  errNameEmpty: 'Enter a name.',
  errNamePattern: 'Use only letters, digits, hyphens and underscores.',
  errNameDuplicate: 'Another stdio server has this name.',
  errCommandEmpty: 'Enter a command.',
  errCommandSpaces: 'The command cannot contain spaces; put parameters in the arguments.',
  errArgEmpty: 'Enter a value or remove this argument.',
  errEnvName: 'Use a name made of letters, digits and underscores, not starting with a digit.',
  errEnvDuplicate: 'This variable is already defined.',
  errSecretEmpty: 'Enter a value, or cancel.',
  errTokenSpaces: 'A token cannot contain spaces.',
  errHostScheme: 'Enter only the host name, without http:// or https://.',
  errHostInvalid: 'Enter a host name such as git.example.com (optionally with :port).',
  errSecretMissing: 'The stored value is no longer available; enter it again.',
  errServerChanged: 'The server setting changed while the form was open; reload the form.',
  errTokenRejected: 'The server rejected this token: {0}',
  errNoSettings:
    'The server has no user settings yet. Open the OpenHands web UI once to finish its setup, then retry.',
  errReadBack: 'Saved, but the server could not be read back; reload the form to see what it holds.',
  errMcpNotKept: 'The server accepted the MCP configuration but did not keep it.',
  errServerOnlyKey:
    'The server holds an API key for this MCP server that VS Code does not have (it never sends keys back). Enter the key again, or remove and re-add the server to drop it; nothing was saved to the server.',
} as const;

export type UiStringKey = keyof typeof ENGLISH_STRINGS;
export type UiStrings = Record<UiStringKey, string>;

export const UiStringsSchema = uiStringsSchema(ENGLISH_STRINGS);
