// A model's failure in words that name the model, from the events agent server 1.34 writes (SDK's
// mapping of LiteLLM's exceptions); hostile details bounded to a line, provider keys masked; other
// errors (a tool's, the iteration limit) are not the model's.
import assert from 'node:assert/strict';
import {
  MAX_FAILURE_DETAIL_CHARS,
  maskKeys,
  modelFailureOf,
  modelFailureText,
} from '../../../../src/api/agentServer/modelFailure';
import { conversationError, MODEL_FAILURES, withEnvelope } from '../../../shared/agentEvents';
import type { EventBody } from '../../../shared/agentEvents';

const event = (body: EventBody) => withEnvelope(body, 'e1');
const MODEL = 'openai/gpt-x';

function words(body: EventBody, model: string | undefined = MODEL): string | undefined {
  const failure = modelFailureOf(event(body), model);
  return failure && modelFailureText(failure);
}

describe('modelFailureOf / modelFailureText', () => {
  it('says each failure in words that name the model', () => {
    assert.equal(words(MODEL_FAILURES.keyRefused), 'openai/gpt-x refused the API key (401).');
    assert.equal(words(MODEL_FAILURES.noKey), 'The server has no key for openai/gpt-x.');
    assert.equal(words(MODEL_FAILURES.unknownModel), 'openai/gpt-x is not a model the provider knows.');
    assert.equal(words(MODEL_FAILURES.noProvider), 'openai/gpt-x is not a model the provider knows.');
    assert.equal(words(MODEL_FAILURES.quota), "The provider's quota for openai/gpt-x is used up (429).");
    assert.equal(
      words(conversationError('LLMServiceUnavailableError', 'Connection refused')),
      'The provider of openai/gpt-x did not answer.',
    );
    const unnamed = modelFailureOf(event(MODEL_FAILURES.noKey), undefined);
    assert.equal(unnamed && modelFailureText(unnamed), 'The server has no key for the model.');
  });

  it('kinds, codes and the provider words kept beside', () => {
    const failure = modelFailureOf(event(MODEL_FAILURES.quota), MODEL);
    assert.deepEqual(failure && { kind: failure.kind, code: failure.code }, {
      kind: 'quota',
      code: 'LLMRateLimitError',
    });
    assert.match(failure?.detail ?? '', /exceeded your current quota/);
  });

  it('other errors are not the model’s: a tool error, the iteration limit, the budget, another bad request', () => {
    for (const body of [
      conversationError('MaxIterationsReached', 'Agent reached maximum iterations limit (500).'),
      conversationError('MaxBudgetReached', 'Budget exceeded'),
      conversationError(
        'LLMBadRequestError',
        'litellm.BadRequestError: messages: text content blocks must be non-empty',
      ),
      conversationError('ValueError', 'boom'),
      {
        kind: 'AgentErrorEvent',
        source: 'agent',
        tool_name: 'terminal',
        tool_call_id: 'c',
        error: 'Invalid API key',
      },
      { kind: 'MessageEvent', source: 'agent', code: 'LLMAuthenticationError', detail: 'x' },
    ] satisfies EventBody[])
      assert.equal(modelFailureOf(event(body), MODEL), undefined, JSON.stringify(body));
  });

  it('the key a provider echoes is masked, whatever its shape', () => {
    const refused = modelFailureOf(event(MODEL_FAILURES.keyRefused), MODEL);
    assert.doesNotMatch(refused?.detail ?? '', /sk-proj|Ab12|Yz89/);
    assert.match(refused?.detail ?? '', /Incorrect API key provided: \[redacted\]/);
    assert.equal(maskKeys('Authorization: Bearer abcdef123456 sent'), 'Authorization: [redacted] sent');
    assert.equal(maskKeys('{"api_key": "s3cr3t-value"}'), '{"api_key": "[redacted]"}');
    assert.equal(maskKeys('key AIzaSyA1234567890abcdefghijklmno refused'), 'key [redacted] refused');
    assert.equal(maskKeys('sk-ant-api03-abcdefgh'), '[redacted]');
  });

  it('a hostile detail is bounded to one line, its control characters gone; a hostile code or model too', () => {
    const huge = `Incorrect API key\n\u0007${'x'.repeat(5_000_000)}`;
    const failure = modelFailureOf(
      event(conversationError('LLMAuthenticationError', huge)),
      `${'m'.repeat(500)}\n`,
    );
    assert.ok(failure);
    assert.ok(failure.detail.length <= MAX_FAILURE_DETAIL_CHARS);
    assert.match(failure.detail, /^Incorrect API key x+…$/);
    assert.ok((failure.model ?? '').length <= 120);
    assert.doesNotMatch(failure.model ?? '', /\n/);
    assert.equal(modelFailureOf(event(conversationError('x'.repeat(10_000), 'y')), MODEL), undefined);
    assert.equal(
      modelFailureOf(event({ kind: 'ConversationErrorEvent', source: 'environment', code: 42 }), MODEL),
      undefined,
    );
  });
});
