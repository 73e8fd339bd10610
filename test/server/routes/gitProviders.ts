// POST /api/add-git-providers and POST /api/unset-provider-tokens (legacy, SESSION_API_KEY-guarded).
import { bodyInput, missingBodyIssue } from '../body';
import type { ServerContext } from '../context';
import { json, validationFailed, type Reply } from '../http';
import { checkProviderTokens, mergeProviderTokens, type IncomingProviderTokens } from '../gitProviders';
import { mcpConfigValidator } from '../mcpConfig';
import { PROVIDER_TYPES, type McpConfig } from '../models';
import type { Route, RouteRequest } from '../route';
import { settingsModelDefaults } from '../settingsDefaults';
import {
  dict,
  enumOf,
  INVALID,
  model,
  nullable,
  optional,
  str,
  type ValidationIssue,
  type Validator,
  nullableField,
} from '../validation';

const providerToken = model({
  token: nullableField(str()),
  user_id: nullableField(str()),
  host: nullableField(str()),
});

const postProviderModel: Validator<{
  provider_tokens: IncomingProviderTokens;
  mcp_config: McpConfig | null;
}> = model({
  mcp_config: optional(nullable(mcpConfigValidator), () => null),
  provider_tokens: optional(dict(enumOf(PROVIDER_TYPES), providerToken), () => ({})),
});

function addGitProviders(request: RouteRequest, context: ServerContext): Reply {
  const input = bodyInput(request.body);
  if (!input.present) return validationFailed([missingBodyIssue()]);
  const issues: ValidationIssue[] = [];
  const parsed = postProviderModel(input.value, ['body'], issues);
  if (parsed === INVALID) return validationFailed(issues);
  const stored = context.state.providerTokens;
  const problem = checkProviderTokens(parsed.provider_tokens, stored);
  if (problem) return json({ error: problem }, 401);
  context.state.providerTokens = mergeProviderTokens(parsed.provider_tokens, stored);
  // The real endpoint validates mcp_config and then drops it; a newer server might keep it.
  if (context.options.storeMcpConfigOnAddGitProviders && parsed.mcp_config !== null) {
    context.state.settings = {
      ...(context.state.settings ?? settingsModelDefaults()),
      mcp_config: parsed.mcp_config,
    };
  }
  return json({ message: 'Git providers stored' });
}

function unsetProviderTokens(_request: RouteRequest, context: ServerContext): Reply {
  context.state.providerTokens = {};
  return json({ message: 'Unset Git provider tokens' });
}

export const gitProviderRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/api\/add-git-providers$/,
    readsBody: true,
    legacyAuth: true,
    handle: addGitProviders,
  },
  {
    method: 'POST',
    pattern: /^\/api\/unset-provider-tokens$/,
    legacyAuth: true,
    handle: unsetProviderTokens,
  },
];
