// What the Model page keeps in its state across a reload (never the key), and the form it starts from.
import assert from 'node:assert/strict';
import type { ModelDraft } from '../../../../../src/webviews/modelForm/shared/pageModel';
import {
  draftFromPage,
  persistedState,
  readPersistedState,
} from '../../../../../src/webviews/modelForm/webview/modelDraft';

function draft(fields: Partial<ModelDraft>): ModelDraft {
  return {
    serverUrl: 'http://127.0.0.1:3000',
    source: 'catalogue',
    provider: 'anthropic',
    model: 'anthropic/claude-sonnet-4-6',
    customModel: '',
    baseUrl: '',
    apiKey: '',
    confirmationMode: false,
    condenserEnabled: true,
    maxBudget: '',
    ...fields,
  };
}

describe('Model page: what the page keeps across a reload', () => {
  it('the form without the key; a state of another shape is dropped', () => {
    const kept = persistedState(draft({ apiKey: 'sk-never-in-state-1234' }), true);
    assert.ok(!JSON.stringify(kept).includes('sk-never-in-state-1234'));
    assert.deepEqual(readPersistedState(JSON.parse(JSON.stringify(kept))), kept);
    assert.equal(readPersistedState({ version: 2 }), undefined);
  });
  it('starts a stored model at its own address as a custom one, with an empty key field', () => {
    const page = {
      serverUrl: 'http://127.0.0.1:3000',
      serverName: 'local',
      webUrl: null,
      settingsRoute: 'v1' as const,
      stored: {
        model: 'openai/my-model',
        baseUrl: 'http://127.0.0.1:8000/v1',
        apiKeySet: true,
        confirmationMode: null,
        condenserEnabled: true,
        maxBudgetPerTask: 2.5,
        budgetOffered: true,
      },
      readiness: 'ready' as const,
      readinessText: '',
      catalogueOffered: true,
      profiles: [],
    };
    const started = draftFromPage(page);
    assert.deepEqual(
      [
        started.source,
        started.customModel,
        started.baseUrl,
        started.apiKey,
        started.provider,
        started.maxBudget,
      ],
      ['custom', 'openai/my-model', 'http://127.0.0.1:8000/v1', '', 'openai', '2.5'],
    );
    assert.equal(draftFromPage({ ...page, stored: { ...page.stored, baseUrl: null } }).source, 'catalogue');
  });
});
