import assert from 'node:assert/strict';
import { modelReadiness, NOT_OFFERED, providerOf, type ModelSettings } from '../../../../src/api';

function settings(fields: Partial<ModelSettings>) {
  const value: ModelSettings = {
    generation: 'v1',
    model: 'anthropic/claude-sonnet-4-6',
    baseUrl: null,
    apiKeySet: false,
    confirmationMode: null,
    condenserEnabled: null,
    maxBudgetPerTask: null,
    activeProfile: null,
    ...fields,
  };
  return { offered: true as const, value: { kind: 'stored' as const, settings: value } };
}

describe('modelReadiness', () => {
  it('no settings, no model, no key, ready', () => {
    assert.equal(modelReadiness({ offered: true, value: { kind: 'none' } }), 'no-settings');
    assert.equal(modelReadiness(settings({ model: null })), 'no-model');
    assert.equal(modelReadiness(settings({ model: '  ' })), 'no-model');
    assert.equal(modelReadiness(settings({})), 'no-key');
    assert.equal(modelReadiness(settings({ apiKeySet: true })), 'ready');
  });

  it('1.11 default model with no key (the issue: "gpt-5.5" and nothing else) is no-key', () => {
    assert.equal(modelReadiness(settings({ model: 'gpt-5.5' })), 'no-key');
    assert.equal(providerOf('gpt-5.5'), 'openai');
  });

  it('providers that need no key, and a model server on this machine, are ready without one', () => {
    assert.equal(modelReadiness(settings({ model: 'ollama/llama3' })), 'ready');
    assert.equal(modelReadiness(settings({ model: 'bedrock/anthropic.claude-v2' })), 'ready');
    assert.equal(
      modelReadiness(settings({ model: 'openai/local', baseUrl: 'http://127.0.0.1:1234/v1' })),
      'ready',
    );
    assert.equal(
      modelReadiness(settings({ model: 'openai/local', baseUrl: 'http://[::1]:1234/v1' })),
      'ready',
    );
    assert.equal(
      modelReadiness(settings({ model: 'openai/x', baseUrl: 'https://api.example.com/v1' })),
      'no-key',
    );
    assert.equal(modelReadiness(settings({ model: 'ollama/llama3' }), []), 'no-key');
  });

  it('a server with no settings route is unknown: the caller does not block on it', () => {
    assert.equal(modelReadiness(NOT_OFFERED), 'unknown');
  });
});
