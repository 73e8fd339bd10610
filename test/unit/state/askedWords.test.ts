// What the user asked a conversation, kept in memory as its first words until the server titles it.
import assert from 'node:assert/strict';
import {
  ASKED_WORDS_CHARS,
  askedWords,
  firstWords,
  forgetAskedWords,
  onDidLearnAskedWords,
  rememberAsked,
} from '../../../src/state/askedWords';

describe('askedWords', () => {
  afterEach(() => forgetAskedWords());

  it('keeps the first line, spaces collapsed, cut at a word', () => {
    assert.equal(firstWords('\n\n  Fix   the failing\ttests  \nin src/auth'), 'Fix the failing tests');
    assert.equal(firstWords('   \n '), '');
    const long = 'Refactor the payment service so that retries back off exponentially and are logged';
    const said = firstWords(long);
    assert.ok(said.endsWith('…') && said.length <= ASKED_WORDS_CHARS + 1, said);
    assert.ok(long.startsWith(said.slice(0, -1)), said);
    assert.ok(!said.slice(0, -1).endsWith(' '), 'cut at a word, not after a space');
    assert.equal(firstWords('x'.repeat(100)), `${'x'.repeat(ASKED_WORDS_CHARS)}…`);
  });

  it('knows a conversation by its id in any spelling, and says when its words change', () => {
    const told: string[] = [];
    const subscription = onDidLearnAskedWords((id) => told.push(id));
    try {
      rememberAsked('B2DD7E1F-0000-4000-8000-000000000001', 'Add a dark mode');
      rememberAsked('b2dd7e1f000040008000000000000001', 'Add a dark mode');
      rememberAsked('b2dd7e1f000040008000000000000002', '   ');
      assert.equal(askedWords('b2dd7e1f-0000-4000-8000-000000000001'), 'Add a dark mode');
      assert.equal(askedWords('b2dd7e1f000040008000000000000002'), undefined);
      assert.deepEqual(
        told,
        ['B2DD7E1F-0000-4000-8000-000000000001'],
        'once: the same words again say nothing',
      );
    } finally {
      subscription.dispose();
    }
  });

  it('keeps the newest 200 conversations only', () => {
    for (let i = 0; i < 250; i++) rememberAsked(i.toString(16).padStart(32, '0'), `task ${i}`);
    assert.equal(askedWords((0).toString(16).padStart(32, '0')), undefined);
    assert.equal(askedWords((49).toString(16).padStart(32, '0')), undefined);
    assert.equal(askedWords((50).toString(16).padStart(32, '0')), 'task 50');
    assert.equal(askedWords((249).toString(16).padStart(32, '0')), 'task 249');
  });
});
