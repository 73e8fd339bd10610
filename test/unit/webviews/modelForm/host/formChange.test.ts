// The form → change mapping, the readiness in words and the lists' shaping: pure logic, no server.
import assert from 'node:assert/strict';
import type { ModelSettings } from '../../../../../src/api';
import { shapeChoices, modelChoices } from '../../../../../src/webviews/modelForm/host/catalogueChoices';
import { draftToChange } from '../../../../../src/webviews/modelForm/host/formChange';
import { readinessWords } from '../../../../../src/webviews/modelForm/host/readinessWords';
import { webAddress } from '../../../../../src/webviews/modelForm/host/pageRead';
import type { ModelDraft } from '../../../../../src/webviews/modelForm/shared/pageModel';
import { ENGLISH_STRINGS as S } from '../../../../../src/webviews/modelForm/shared/uiStrings';

const STORED: ModelSettings = {
  generation: 'v1',
  model: 'anthropic/claude-sonnet-4-6',
  baseUrl: null,
  apiKeySet: true,
  confirmationMode: false,
  condenserEnabled: true,
  maxBudgetPerTask: null,
  activeProfile: null,
};

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

describe('Model page: the form → change', () => {
  it('a catalogue model: its id, no base URL, the options the settings carry', () => {
    assert.deepEqual(draftToChange(draft({ confirmationMode: true, maxBudget: '5' }), STORED, S), {
      ok: true,
      change: {
        model: 'anthropic/claude-sonnet-4-6',
        baseUrl: null,
        confirmationMode: true,
        condenserEnabled: true,
        maxBudgetPerTask: 5,
      },
    });
  });

  it('a custom model: its name and base URL, trimmed; a typed key; an empty budget is no limit', () => {
    const mapped = draftToChange(
      draft({
        source: 'custom',
        customModel: ' openai/my-model ',
        baseUrl: 'http://127.0.0.1:8000/v1 ',
        apiKey: ' k-1 ',
      }),
      { ...STORED, maxBudgetPerTask: 3 },
      S,
    );
    assert.deepEqual(mapped, {
      ok: true,
      change: {
        model: 'openai/my-model',
        baseUrl: 'http://127.0.0.1:8000/v1',
        apiKey: 'k-1',
        confirmationMode: false,
        condenserEnabled: true,
        maxBudgetPerTask: null,
      },
    });
  });

  it('nothing stored yet: only the model, base URL and key (the options are unknown)', () => {
    assert.deepEqual(
      draftToChange(
        draft({ source: 'custom', customModel: 'ollama/llama3', confirmationMode: true, maxBudget: '9' }),
        undefined,
        S,
      ),
      { ok: true, change: { model: 'ollama/llama3', baseUrl: null } },
    );
  });

  it('an option the settings do not carry is never sent', () => {
    const mapped = draftToChange(
      draft({ confirmationMode: true, condenserEnabled: false }),
      { ...STORED, confirmationMode: null, condenserEnabled: null },
      S,
    );
    assert.ok(mapped.ok);
    assert.equal('confirmationMode' in mapped.change, false);
    assert.equal('condenserEnabled' in mapped.change, false);
  });

  it('refuses an empty model on the field in use, a base URL that is not http(s), a bad budget', () => {
    assert.deepEqual(draftToChange(draft({ model: '' }), STORED, S), {
      ok: false,
      errors: { model: S.errModelEmpty },
    });
    assert.deepEqual(
      draftToChange(
        draft({ source: 'custom', customModel: 'x', baseUrl: 'javascript:alert(1)', maxBudget: '-1' }),
        STORED,
        S,
      ),
      { ok: false, errors: { baseUrl: S.errBaseUrl, maxBudget: S.errBudget } },
    );
    for (const budget of ['0', '1.234', '1e3', 'NaN'])
      assert.equal(draftToChange(draft({ maxBudget: budget }), STORED, S).ok, false, budget);
    for (const budget of ['2.5', '.5', '10.00'])
      assert.equal(draftToChange(draft({ maxBudget: budget }), STORED, S).ok, true, budget);
  });
});

describe('Model page: readiness in words', () => {
  it('says what is ready and what is missing', () => {
    assert.equal(readinessWords('ready', 'openai/gpt-4o', S), 'Ready: conversations use openai/gpt-4o.');
    assert.equal(
      readinessWords('no-key', 'anthropic/claude-sonnet-4-6', S),
      'No key: anthropic needs an API key.',
    );
    assert.equal(readinessWords('no-key', 'gpt-4o', S), 'No key: openai needs an API key.');
    assert.equal(readinessWords('no-settings', null, S), S.readyNoSettings);
    assert.equal(readinessWords('no-model', null, S), S.readyNoModel);
    assert.equal(readinessWords('unknown', null, S), 'This server keeps its model in its own web page.');
  });
});

describe('Model page: the lists the page is sent', () => {
  const entries = [
    { value: 'a/one', label: 'one', verified: false },
    { value: 'a/two', label: 'two', verified: true },
    { value: 'a/three', label: 'three', verified: false },
  ];
  it('verified first, matched in any case, bounded with a count of the rest', () => {
    assert.deepEqual(shapeChoices(entries, '', 2), { items: [entries[1], entries[0]], more: 1 });
    assert.deepEqual(
      shapeChoices(entries, ' T', 10).items.map((e) => e.label),
      ['two', 'three'],
    );
    assert.deepEqual(shapeChoices(entries, 'nothing', 10), { items: [], more: 0 });
  });
  it('hidden models and names too long for the page are never offered; a model is offered by its full id', () => {
    assert.deepEqual(
      modelChoices([
        { provider: 'openai', name: 'x'.repeat(600), verified: true, hidden: false, canonical: null },
        { provider: 'openai', name: 'gpt-4o', verified: true, hidden: false, canonical: null },
        { provider: 'openai', name: 'gpt-4o-alias', verified: false, hidden: true, canonical: 'gpt-4o' },
      ]),
      [{ value: 'openai/gpt-4o', label: 'gpt-4o', verified: true }],
    );
  });
  it('Open in Browser opens only an http(s) address, without credentials', () => {
    assert.equal(webAddress('https://me:pw@oh.example.com/x'), 'https://oh.example.com/x');
    assert.equal(webAddress('file:///etc/passwd'), null);
    assert.equal(webAddress('not a url'), null);
  });
});
