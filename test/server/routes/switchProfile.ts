// `POST /api/v1/app-conversations/{id}/switch_profile` of openhands-ai 1.11.0
// (app_conversation/app_conversation_router.py): `{profile_name}` (min length 1); 404 "Settings not
// found" or "Profile 'x' not found" before the conversation is looked at; 404 "Conversation … is not
// reachable" for an unknown one; 409 while its sandbox is not running; then the agent server's
// `switch_llm`, and the conversation's `llm_model` becomes the profile's model: `{"success": true}`.
// The agent server installs the profile's LLM under `usage_id` `profile:<name>:<sha1 of the LLM, 12
// hex>` and emits the new `agent` as a state update (agentServer.ts, `switchLlm`).
import { createHash } from 'node:crypto';
import { bodyInput, missingBodyIssue } from '../body';
import type { ServerContext } from '../context';
import { json, validationFailed, type Reply } from '../http';
import { profilesOf } from '../llmProfiles';
import type { ProfileLlmRecord } from '../models';
import type { Route, RouteRequest } from '../route';
import { dashedUuid } from '../ids';
import { uuid } from '../scalars';
import { findConversation, findSandbox } from '../state';
import { INVALID, isPlainObject, issue, type ValidationIssue } from '../validation';

/** The router's `usage_id`: the profile's name and a hash of its LLM, so an edited profile lands. */
function profileUsageId(name: string, llm: ProfileLlmRecord): string {
  const fingerprint = JSON.stringify({ api_key: llm.api_key, base_url: llm.base_url, model: llm.model });
  return `profile:${name}:${createHash('sha1').update(fingerprint).digest('hex').slice(0, 12)}`;
}

function switchProfile(request: RouteRequest, context: ServerContext): Reply {
  const issues: ValidationIssue[] = [];
  const hex = uuid()(request.params.conversationId ?? '', ['path', 'conversation_id'], issues);
  const input = bodyInput(request.body);
  if (!input.present) issues.push(missingBodyIssue());
  else if (!isPlainObject(input.value))
    issues.push(
      issue('model_attributes_type', ['body'], 'Input should be a valid dictionary or object', input.value),
    );
  else if (typeof input.value.profile_name !== 'string')
    issues.push(
      'profile_name' in input.value
        ? issue(
            'string_type',
            ['body', 'profile_name'],
            'Input should be a valid string',
            input.value.profile_name,
          )
        : issue('missing', ['body', 'profile_name'], 'Field required', input.value),
    );
  else if (input.value.profile_name.length < 1)
    issues.push(
      issue('string_too_short', ['body', 'profile_name'], 'String should have at least 1 character', '', {
        min_length: 1,
      }),
    );
  if (hex === INVALID || issues.length > 0 || !input.present || !isPlainObject(input.value))
    return validationFailed(issues);
  const name = String(input.value.profile_name);
  const settings = context.state.settings;
  if (settings === null) return json({ detail: 'Settings not found' }, 404);
  const profile = profilesOf(settings).profiles[name];
  if (!profile) return json({ detail: `Profile '${name}' not found` }, 404);
  const conversation = findConversation(context.state, hex);
  const sandbox = conversation ? findSandbox(context.state, conversation.sandbox_id) : undefined;
  if (!conversation || !sandbox)
    return json({ detail: `Conversation ${dashedUuid(hex)} is not reachable` }, 404);
  if (sandbox.status !== 'RUNNING')
    return json({ detail: 'Sandbox is paused; resume it before switching profiles.' }, 409);
  context.agent.switchLlm(conversation.id, profile.model, profileUsageId(name, profile));
  return json({ success: true });
}

export const switchProfileRoutes: Route[] = [
  {
    since1_11: true,
    method: 'POST',
    pattern: /^\/api\/v1\/app-conversations\/(?<conversationId>[^/]+)\/switch_profile$/,
    readsBody: true,
    handle: switchProfile,
  },
];
