// Settings of a user who finished the first-run setup, and the `Settings` model defaults used when a
// POST omits fields (the real endpoint stores the posted model wholesale).
import type { McpConfig, SettingsRecord } from './models';

/** Field defaults of the pydantic `Settings` model: what an omitted field becomes on POST. */
export function settingsModelDefaults(): SettingsRecord {
  return {
    language: null,
    agent: null,
    max_iterations: null,
    security_analyzer: null,
    confirmation_mode: null,
    llm_model: null,
    llm_api_key: null,
    llm_base_url: null,
    remote_runtime_resource_factor: null,
    enable_default_condenser: true,
    enable_sound_notifications: false,
    enable_proactive_conversation_starters: true,
    enable_solvability_analysis: true,
    user_consents_to_analytics: null,
    sandbox_base_container_image: null,
    sandbox_runtime_container_image: null,
    mcp_config: null,
    search_api_key: null,
    sandbox_api_key: null,
    max_budget_per_task: null,
    email: null,
    email_verified: null,
    git_user_name: null,
    git_user_email: null,
  };
}

/** A configured OSS install, so the demo and tests can start conversations right away. */
export function seededSettings(): SettingsRecord {
  return {
    ...settingsModelDefaults(),
    language: 'en',
    agent: 'CodeActAgent',
    confirmation_mode: false,
    llm_model: 'anthropic/claude-sonnet-4-5-20250929',
    llm_api_key: 'sk-ant-test-not-a-real-key',
    security_analyzer: 'llm',
    user_consents_to_analytics: false,
    git_user_name: 'openhands',
    git_user_email: 'openhands@all-hands.dev',
  };
}

export function emptyMcpConfig(): McpConfig {
  return { sse_servers: [], stdio_servers: [], shttp_servers: [] };
}
