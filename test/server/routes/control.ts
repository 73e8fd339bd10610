// Out-of-process control (`/__control/*`) for the demo and the VS Code extension host: faults,
// reset, start-task failures, recorded requests and state. Never subject to auth, faults or limits.
import { z } from 'zod';
import { bodyInput } from '../body';
import type { ServerContext } from '../context';
import type { FaultRule } from '../faults';
import { json, type Reply } from '../http';
import { EXECUTION_STATUSES, PROVIDER_TYPES, SANDBOX_STATUSES, type SandboxRecord } from '../models';
import type { Route, RouteRequest } from '../route';
import { settingsModelDefaults } from '../settingsDefaults';
import { findConversation, findSandbox } from '../state';
import { defaultSpecId } from '../specs';

const ruleBase = z.object({
  match: z
    .object({ method: z.string().optional(), path: z.string().optional(), pathRegex: z.string().optional() })
    .optional(),
  times: z.number().int().positive().optional(),
  probability: z.number().min(0).max(1).optional(),
});

const faultRuleBody = z.discriminatedUnion('kind', [
  ruleBase.extend({ kind: z.literal('latency'), ms: z.number().nonnegative() }),
  ruleBase.extend({
    kind: z.literal('status'),
    status: z.number().int().min(100).max(599),
    body: z.unknown().optional(),
    contentType: z.string().optional(),
  }),
  ruleBase.extend({ kind: z.literal('rate_limit'), retryAfterSeconds: z.number().nonnegative().optional() }),
  ruleBase.extend({ kind: z.literal('malformed_json') }),
  ruleBase.extend({ kind: z.literal('html') }),
  ruleBase.extend({ kind: z.literal('reset') }),
  ruleBase.extend({ kind: z.literal('hang') }),
  ruleBase.extend({ kind: z.literal('drift') }),
]);

const failNextStartBody = z.object({
  detail: z.string().default(''),
  count: z.number().int().positive().default(1),
});

const sandboxPatchBody = z.object({
  status: z.enum(SANDBOX_STATUSES).optional(),
  session_api_key: z.string().optional(),
  sandbox_spec_id: z.string().optional(),
  created_at: z.string().optional(),
});

const sandboxCreateBody = sandboxPatchBody.extend({ id: z.string().optional() });

const conversationPatchBody = z.object({
  title: z.string().nullable().optional(),
  execution_status: z.enum(EXECUTION_STATUSES).optional(),
  sandbox_id: z.string().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  // what 1.11 stores when the agent's create_pr/create_mr tools open a PR (mcp_router.save_pr_metadata)
  selected_repository: z.string().nullable().optional(),
  selected_branch: z.string().nullable().optional(),
  git_provider: z.enum(PROVIDER_TYPES).nullable().optional(),
  pr_number: z.array(z.number().int()).optional(),
});

const providerRepositoryBody = z.object({
  provider: z.enum(PROVIDER_TYPES),
  /** `owner/name`, as the provider's API spells it. */
  repository: z.string().regex(/^[^/\s]+(\/[^/\s]+)+$/),
  /** An absolute path to a bare repository on this machine. */
  path: z.string().startsWith('/'),
});

export type Parsed<T> = { ok: true; data: T } | { ok: false; reply: Reply };

/** A control route's JSON body checked against its schema, or the 400 that says what is wrong. */
export function parseBody<T>(request: RouteRequest, schema: z.ZodType<T>): Parsed<T> {
  const input = bodyInput(request.body);
  const result = schema.safeParse(input.present ? input.value : {});
  return result.success
    ? { ok: true, data: result.data }
    : { ok: false, reply: json({ error: z.prettifyError(result.error) }, 400) };
}

function addFault(request: RouteRequest, context: ServerContext): Reply {
  const parsed = parseBody(request, faultRuleBody);
  if (!parsed.ok) return parsed.reply;
  const body = parsed.data;
  const { match, ...rest } = body;
  let path: string | RegExp | undefined = match?.path;
  if (match?.pathRegex !== undefined) {
    try {
      path = new RegExp(match.pathRegex);
    } catch (error) {
      return json({ error: `Invalid pathRegex: ${String(error)}` }, 400);
    }
  }
  const rule = { ...rest, match: { method: match?.method, path } } as FaultRule;
  const handle = context.faults.add(rule);
  return json({ id: handle.id });
}

function listFaults(_request: RouteRequest, context: ServerContext): Reply {
  return json(
    context.faults.active.map(({ id, hits, remaining }) => ({
      id,
      hits,
      remaining: remaining === Infinity ? null : remaining,
    })),
  );
}

function clearFaults(_request: RouteRequest, context: ServerContext): Reply {
  context.faults.clear();
  return json({ ok: true });
}

function removeFault(request: RouteRequest, context: ServerContext): Reply {
  return context.faults.remove(request.params['faultId'] ?? '')
    ? json({ ok: true })
    : json({ error: 'Unknown fault' }, 404);
}

function reset(_request: RouteRequest, context: ServerContext): Reply {
  context.reset();
  return json({ ok: true });
}

function failNextStart(request: RouteRequest, context: ServerContext): Reply {
  const parsed = parseBody(request, failNextStartBody);
  if (!parsed.ok) return parsed.reply;
  const body = parsed.data;
  context.startTasks.failNext(body.detail, body.count);
  return json({ ok: true });
}

const holdStartsBody = z.object({ on: z.boolean() });

/** `{on: true}` holds every start at STARTING_CONVERSATION; `{on: false}` lets the held ones finish. */
function holdStarts(request: RouteRequest, context: ServerContext): Reply {
  const parsed = parseBody(request, holdStartsBody);
  if (!parsed.ok) return parsed.reply;
  context.startTasks.hold(parsed.data.on);
  return json({ ok: true });
}

function listRequests(_request: RouteRequest, context: ServerContext): Reply {
  return json(context.requests);
}

function clearRequests(_request: RouteRequest, context: ServerContext): Reply {
  context.requests.length = 0;
  return json({ ok: true });
}

function countConnections(_request: RouteRequest, context: ServerContext): Reply {
  return json({ accepted: context.acceptedConnections() });
}

function readState(_request: RouteRequest, context: ServerContext): Reply {
  return json(context.state);
}

function patchSandbox(request: RouteRequest, context: ServerContext): Reply {
  const parsed = parseBody(request, sandboxPatchBody);
  if (!parsed.ok) return parsed.reply;
  const body = parsed.data;
  const sandbox = findSandbox(context.state, request.params['sandboxId'] ?? '');
  if (!sandbox) return json({ error: 'Unknown sandbox' }, 404);
  const { status, ...fields } = body;
  Object.assign(sandbox, fields);
  if (status !== undefined) context.sandboxes.forceStatus(sandbox, status);
  return json(sandbox);
}

function createSandbox(request: RouteRequest, context: ServerContext): Reply {
  const parsed = parseBody(request, sandboxCreateBody);
  if (!parsed.ok) return parsed.reply;
  const body = parsed.data;
  const sandbox: SandboxRecord = {
    id: body.id ?? context.ids.sandboxId(),
    created_by_user_id: null,
    sandbox_spec_id: body.sandbox_spec_id ?? defaultSpecId(context.state.specs),
    status: body.status ?? 'RUNNING',
    session_api_key: body.session_api_key ?? context.ids.sessionApiKey(),
    created_at: body.created_at ?? context.clock.now(),
  };
  context.state.sandboxes.push(sandbox);
  return json(sandbox);
}

function patchConversation(request: RouteRequest, context: ServerContext): Reply {
  const parsed = parseBody(request, conversationPatchBody);
  if (!parsed.ok) return parsed.reply;
  const body = parsed.data;
  const conversation = findConversation(
    context.state,
    (request.params['conversationId'] ?? '').replace(/-/g, '').toLowerCase(),
  );
  if (!conversation) return json({ error: 'Unknown conversation' }, 404);
  Object.assign(conversation, body);
  return json(conversation);
}

/** A conversation deleted elsewhere (the web UI, another client): gone from every list. */
function deleteConversation(request: RouteRequest, context: ServerContext): Reply {
  const id = (request.params['conversationId'] ?? '').replace(/-/g, '').toLowerCase();
  const index = context.state.conversations.findIndex((conversation) => conversation.id === id);
  if (index === -1) return json({ error: 'Unknown conversation' }, 404);
  context.state.conversations.splice(index, 1);
  return json({ ok: true });
}

/** `null` removes the settings (as on a fresh install); an object is merged into them. */
function patchSettings(request: RouteRequest, context: ServerContext): Reply {
  const input = bodyInput(request.body);
  const value = input.present ? input.value : null;
  if (value === null) context.state.settings = null;
  else if (typeof value === 'object' && !Array.isArray(value)) {
    context.state.settings = { ...(context.state.settings ?? settingsModelDefaults()), ...value };
  } else return json({ error: 'Expected an object or null' }, 400);
  return json(context.state.settings);
}

/** The provider holds `repository`, served from a local bare repository (replaces the same name's entry). */
function addProviderRepository(request: RouteRequest, context: ServerContext): Reply {
  const parsed = parseBody(request, providerRepositoryBody);
  if (!parsed.ok) return parsed.reply;
  const { provider, repository, path } = parsed.data;
  const state = context.state;
  const sameName = (entry: { provider: string; full_name: string }) =>
    entry.provider === provider && entry.full_name.toLowerCase() === repository.toLowerCase();
  state.providerRepositories = [
    ...state.providerRepositories.filter((entry) => !sameName(entry)),
    { provider, full_name: repository, path },
  ];
  return json(state.providerRepositories);
}

/** No repository known: starts on a repository go on without a clone again (`repositoryClone.ts`). */
function clearProviderRepositories(_request: RouteRequest, context: ServerContext): Reply {
  context.state.providerRepositories = [];
  return json({ ok: true });
}

export const controlRoutes: Route[] = [
  { method: 'POST', pattern: /^\/__control\/faults$/, handle: addFault },
  { method: 'GET', pattern: /^\/__control\/faults$/, handle: listFaults },
  { method: 'DELETE', pattern: /^\/__control\/faults$/, handle: clearFaults },
  { method: 'DELETE', pattern: /^\/__control\/faults\/(?<faultId>[^/]+)$/, handle: removeFault },
  { method: 'POST', pattern: /^\/__control\/reset$/, handle: reset },
  { method: 'POST', pattern: /^\/__control\/fail-next-start$/, handle: failNextStart },
  { method: 'POST', pattern: /^\/__control\/hold-starts$/, handle: holdStarts },
  { method: 'GET', pattern: /^\/__control\/requests$/, handle: listRequests },
  { method: 'DELETE', pattern: /^\/__control\/requests$/, handle: clearRequests },
  { method: 'GET', pattern: /^\/__control\/connections$/, handle: countConnections },
  { method: 'GET', pattern: /^\/__control\/state$/, handle: readState },
  { method: 'POST', pattern: /^\/__control\/state\/sandboxes$/, handle: createSandbox },
  { method: 'POST', pattern: /^\/__control\/state\/sandboxes\/(?<sandboxId>[^/]+)$/, handle: patchSandbox },
  {
    method: 'POST',
    pattern: /^\/__control\/state\/conversations\/(?<conversationId>[^/]+)$/,
    handle: patchConversation,
  },
  {
    method: 'DELETE',
    pattern: /^\/__control\/state\/conversations\/(?<conversationId>[^/]+)$/,
    handle: deleteConversation,
  },
  { method: 'POST', pattern: /^\/__control\/state\/settings$/, handle: patchSettings },
  { method: 'POST', pattern: /^\/__control\/git-provider\/repositories$/, handle: addProviderRepository },
  {
    method: 'DELETE',
    pattern: /^\/__control\/git-provider\/repositories$/,
    handle: clearProviderRepositories,
  },
];
