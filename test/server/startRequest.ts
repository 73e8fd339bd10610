// AppConversationStartRequest validation (with SDK SendMessageRequest/TextContent rules) and the
// inheritance from a parent conversation that the real server applies before saving the task.
import {
  AGENT_TYPES,
  CONVERSATION_TRIGGERS,
  PROVIDER_TYPES,
  type AppConversationStartRequest,
  type EventCallbackProcessor,
  type ImageContent,
  type TextContent,
} from './models';
import { uuid } from './scalars';
import { findConversation, type ServerState } from './state';
import {
  bool,
  enumOf,
  int,
  list,
  literal,
  model,
  optional,
  required,
  str,
  taggedUnion,
  union,
  type Validator,
  nullableField,
} from './validation';

/** TextContent forbids extra keys; ImageContent ignores them. */
const textContent: Validator<TextContent> = model(
  {
    cache_prompt: optional(bool(), () => false),
    type: optional(literal(['text']), () => 'text' as const),
    text: required(str()),
  },
  { forbidExtra: true },
);

const imageContent: Validator<ImageContent> = model({
  cache_prompt: optional(bool(), () => false),
  type: optional(literal(['image']), () => 'image' as const),
  image_urls: required(list(str())),
});

export const messageContent = union<TextContent | ImageContent>([
  ['TextContent', textContent],
  ['ImageContent', imageContent],
]);

const sendMessageRequest = model({
  role: optional(literal(['user', 'system', 'assistant', 'tool']), () => 'user' as const),
  content: optional(list(messageContent), () => []),
  run: optional(bool(), () => false),
});

function processorOf<const K extends EventCallbackProcessor['kind']>(kind: K): Validator<{ kind: K }> {
  return model({ kind: required(literal([kind])) });
}

const processor = taggedUnion<EventCallbackProcessor>('kind', {
  SetTitleCallbackProcessor: processorOf('SetTitleCallbackProcessor'),
  LoggingCallbackProcessor: processorOf('LoggingCallbackProcessor'),
});

export const startRequestValidator: Validator<AppConversationStartRequest> = model({
  sandbox_id: nullableField(str()),
  conversation_id: nullableField(uuid()),
  initial_message: nullableField(sendMessageRequest),
  processors: nullableField(list(processor)),
  llm_model: nullableField(str()),
  agent_profile_id: nullableField(str()),
  selected_repository: nullableField(str()),
  selected_branch: nullableField(str()),
  git_provider: nullableField(enumOf(PROVIDER_TYPES)),
  title: nullableField(str()),
  trigger: nullableField(enumOf(CONVERSATION_TRIGGERS)),
  pr_number: optional(list(int()), () => []),
  parent_conversation_id: nullableField(uuid()),
  agent_type: optional(enumOf(AGENT_TYPES), () => 'default' as const),
});

/**
 * Fills sandbox, repository, branch, provider and model from the parent when unset.
 * Returns null for an unknown parent (the real server fails with an uncaught error: 500).
 */
export function inheritFromParent(
  request: AppConversationStartRequest,
  state: ServerState,
): AppConversationStartRequest | null {
  if (request.parent_conversation_id === null) return request;
  const parent = findConversation(state, request.parent_conversation_id);
  if (!parent) return null;
  return {
    ...request,
    sandbox_id: request.sandbox_id ?? parent.sandbox_id,
    selected_repository: request.selected_repository ?? parent.selected_repository,
    selected_branch: request.selected_branch ?? parent.selected_branch,
    git_provider: request.git_provider ?? parent.git_provider,
    llm_model: request.llm_model ?? parent.llm_model,
  };
}
