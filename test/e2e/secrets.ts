// Every secret value the e2e run types or seeds, in one place: the steps use them, and after the run
// scripts/vscode/run-e2e.ts looks for each one in the VS Code user data and the browser's storage.

/** Typed into the MCP & Git Providers form and saved. */
export const FORM_SECRETS = {
  github: 'ghp_e2e_token_1234',
  sseKey: 'sse-e2e-key-5678',
  env: 'env-e2e-secret-9012',
} as const;

/** A GitLab token the server already holds (as if set in the web UI); the form imports it. */
export const SEEDED_GITLAB_TOKEN = 'glpat-from-web-ui';

/** Typed into the form and never saved. */
export const UNSAVED_SECRET = 'typed-but-never-saved';

/** Typed into "OpenHands: Set API Key…". */
export const E2E_API_KEY = 'oh-e2e-api-key-3456';

/** Typed into "OpenHands: Set API Key…" for a plain http:// server on another machine, after agreeing. */
export const E2E_PLAIN_HTTP_API_KEY = 'oh-e2e-plain-http-key-7890';

/** Typed into Connect to OpenHands… for a server that needs a key; forgotten later with Forget Server. */
export const E2E_TEAM_API_KEY = 'oh-e2e-team-key-5150';

/** Typed into the Model page as the custom model's LLM key, and saved. */
export const E2E_LLM_KEY = 'sk-e2e-llm-key-2468';

/** A GitHub token the server holds for Bring my changes; the server clones with it, the extension never sees it. */
export const E2E_CLONE_TOKEN = 'ghp_e2e_clone_token_8642';

export const E2E_SECRETS: readonly string[] = [
  ...Object.values(FORM_SECRETS),
  SEEDED_GITLAB_TOKEN,
  UNSAVED_SECRET,
  E2E_API_KEY,
  E2E_PLAIN_HTTP_API_KEY,
  E2E_TEAM_API_KEY,
  E2E_LLM_KEY,
  E2E_CLONE_TOKEN,
];
