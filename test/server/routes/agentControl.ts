// `/__control/agent/*`: the agent-server double driven from outside the process (the VS Code test
// host), the same operations as `server.agent`. Never subject to auth or faults.
import { z } from 'zod';
import { UnknownConversationError, type EventInput } from '../agentServer/agentServer';
import { WorkspaceInputError } from '../agentServer/workspaceEdits';
import type { ServerContext } from '../context';
import { json, type Reply } from '../http';
import type { Route, RouteRequest } from '../route';
import { parseBody } from './control';

const optionsBody = z.object({
  legacy: z.boolean().optional(),
  agentStepMs: z.number().int().nonnegative().optional(),
  wsPingMs: z.number().int().positive().optional(),
  wsAuthTimeoutMs: z.number().int().positive().optional(),
  wsDropFullState: z.boolean().optional(),
  wsHostility: z
    .union([
      z.object({
        kind: z.literal('close'),
        code: z.number().int().min(1000).max(4999),
        reason: z.string().max(120),
        afterMs: z.number().int().nonnegative(),
      }),
      z.object({ kind: z.literal('protocol_error'), afterMs: z.number().int().nonnegative() }),
      z.null(),
    ])
    .optional(),
  pagingHostility: z.enum(['repeat', 'empty']).nullable().optional(),
  llm: z
    .union([
      z.enum(['scripted', 'silent']),
      z.object({ kind: z.literal('fail'), code: z.string().max(200), detail: z.string().max(100_000) }),
    ])
    .optional(),
});

const appendBody = z.object({
  events: z.array(z.looseObject({ kind: z.string().min(1) })),
});

const streamBody = z.object({
  deltas: z.array(
    z.union([
      z.string(),
      z.object({ content: z.string().optional(), reasoning_content: z.string().optional() }),
    ]),
  ),
});

const dropBody = z.object({ refuseMs: z.number().int().nonnegative().default(0) });
const seedBody = z.object({ count: z.number().int().nonnegative().max(1_000_000) });
const workspaceBody = z.object({
  files: z.record(z.string(), z.union([z.string(), z.object({ base64: z.string() }), z.null()])).default({}),
  commit: z.string().optional(),
  origin: z.boolean().optional(),
});

/** Unknown conversations are a 404, like the other control routes; a bad workspace path a 400. */
function withConversation(
  action: (id: string, request: RouteRequest, context: ServerContext) => Reply | Promise<Reply>,
) {
  return async (request: RouteRequest, context: ServerContext): Promise<Reply> => {
    try {
      return await action(request.params['conversationId'] ?? '', request, context);
    } catch (error) {
      if (error instanceof UnknownConversationError) return json({ error: 'Unknown conversation' }, 404);
      if (error instanceof WorkspaceInputError) return json({ error: error.message }, 400);
      throw error;
    }
  };
}

function readOptions(_request: RouteRequest, context: ServerContext): Reply {
  return json(context.agent.settings);
}

function setOptions(request: RouteRequest, context: ServerContext): Reply {
  const parsed = parseBody(request, optionsBody);
  return parsed.ok ? json(context.agent.setOptions(parsed.data)) : parsed.reply;
}

function socketCounts(_request: RouteRequest, context: ServerContext): Reply {
  return json(context.agent.socketCounts());
}

function listConversations(_request: RouteRequest, context: ServerContext): Reply {
  return json(context.agent.conversations());
}

const CONVERSATION = '^/__control/agent/conversations/(?<conversationId>[^/]+)';

export const agentControlRoutes: Route[] = [
  { method: 'GET', pattern: /^\/__control\/agent\/options$/, handle: readOptions },
  { method: 'POST', pattern: /^\/__control\/agent\/options$/, handle: setOptions },
  { method: 'GET', pattern: /^\/__control\/agent\/sockets$/, handle: socketCounts },
  { method: 'GET', pattern: /^\/__control\/agent\/conversations$/, handle: listConversations },
  {
    method: 'GET',
    pattern: new RegExp(`${CONVERSATION}/events$`),
    handle: withConversation((id, _request, context) => json(context.agent.events(id))),
  },
  {
    method: 'POST',
    pattern: new RegExp(`${CONVERSATION}/events$`),
    handle: withConversation((id, request, context) => {
      const parsed = parseBody(request, appendBody);
      return parsed.ok
        ? json({ events: context.agent.append(id, parsed.data.events as EventInput[]) })
        : parsed.reply;
    }),
  },
  {
    method: 'POST',
    pattern: new RegExp(`${CONVERSATION}/stream$`),
    handle: withConversation((id, request, context) => {
      const parsed = parseBody(request, streamBody);
      return parsed.ok ? json({ events: context.agent.stream(id, parsed.data.deltas) }) : parsed.reply;
    }),
  },
  {
    method: 'POST',
    pattern: new RegExp(`${CONVERSATION}/run$`),
    handle: withConversation((id, _request, context) => json({ outcome: context.agent.run(id) })),
  },
  {
    method: 'POST',
    pattern: new RegExp(`${CONVERSATION}/drop$`),
    handle: withConversation((id, request, context) => {
      const parsed = parseBody(request, dropBody);
      return parsed.ok ? json({ dropped: context.agent.drop(id, parsed.data) }) : parsed.reply;
    }),
  },
  {
    method: 'POST',
    pattern: new RegExp(`${CONVERSATION}/silence$`),
    handle: withConversation((id, _request, context) => json({ silenced: context.agent.silence(id) })),
  },
  {
    method: 'POST',
    pattern: new RegExp(`${CONVERSATION}/seed$`),
    handle: withConversation((id, request, context) => {
      const parsed = parseBody(request, seedBody);
      return parsed.ok ? json({ count: context.agent.seedEvents(id, parsed.data.count) }) : parsed.reply;
    }),
  },
  {
    method: 'POST',
    pattern: new RegExp(`${CONVERSATION}/workspace$`),
    handle: withConversation(async (id, request, context) => {
      const parsed = parseBody(request, workspaceBody);
      return parsed.ok ? json(await context.agent.workspace(id, parsed.data)) : parsed.reply;
    }),
  },
  {
    method: 'POST',
    pattern: new RegExp(`${CONVERSATION}/workspace/(?<preset>sample|images|runs-code)$`),
    handle: withConversation(async (id, request, context) => {
      const preset = request.params['preset'];
      return json(
        await context.agent.sampleWorkspace(
          id,
          preset === 'images' || preset === 'runs-code' ? preset : 'sample',
        ),
      );
    }),
  },
  {
    method: 'GET',
    pattern: new RegExp(`${CONVERSATION}/sockets$`),
    handle: withConversation((id, _request, context) => json({ count: context.agent.socketCount(id) })),
  },
];
