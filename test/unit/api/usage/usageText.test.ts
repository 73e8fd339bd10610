// A conversation's usage in words: the cost, the tokens, how full the context is, the budget, the
// warning from 80 %, and the breakdown behind the header's line.
import assert from 'node:assert/strict';
import { statsFromUpdate, type UsageStats } from '../../../../src/api/usage/usageStats';
import { formatCost, formatTokens, usageText } from '../../../../src/api/usage/usageText';
import { statsValue, type UsageFigures } from '../../../shared/agentEvents';

function stats(agent: UsageFigures, others: Record<string, UsageFigures> = {}): UsageStats {
  const read = statsFromUpdate(statsValue({ agent, ...others }));
  assert.ok(read);
  return read;
}

describe('usageText: usage in words', () => {
  it('says a cost in dollars and cents, a tiny one as under a cent, a large one whole', () => {
    assert.deepEqual([0, 0.001, 0.005, 0.42, 1.999, 12.5, 999.99, 1234.4].map(formatCost), [
      '$0.00',
      '<$0.01',
      '$0.01',
      '$0.42',
      '$2.00',
      '$12.50',
      '$999.99',
      '$1,234',
    ]);
  });

  it('says tokens short: 950, 4.2k, 10k, 215k, 1M, 1.3M, 12M', () => {
    assert.deepEqual([950, 4200, 4000, 10_000, 215_400, 999_600, 1_300_000, 12_400_000].map(formatTokens), [
      '950',
      '4.2k',
      '4k',
      '10k',
      '215k',
      '1M',
      '1.3M',
      '12M',
    ]);
  });

  it('sums cost, tokens and the newest call’s share of the context window on one line', () => {
    const text = usageText(
      stats({ cost: 0.42, prompt: 200_000, completion: 15_000, contextWindow: 200_000, perTurn: 116_000 }),
    );
    assert.equal(text.summary, '$0.42 · 215k tokens · context 58 %');
    assert.equal(text.contextPercent, 58);
    assert.equal(text.warning, null);
  });

  it('leaves the context out while the window or the newest call is unknown', () => {
    assert.equal(usageText(stats({ cost: 0.1, prompt: 900, completion: 50 })).summary, '$0.10 · 950 tokens');
    assert.equal(usageText(stats({ cost: 0.1, prompt: 900, perTurn: 900 })).contextPercent, null);
  });

  it('says the budget as “of $5.00” and warns from 80 % of it, and from 80 % of the context', () => {
    const under = usageText(stats({ cost: 3.99, budget: 5, prompt: 1000 }));
    assert.equal(under.summary, '$3.99 of $5.00 · 1k tokens');
    assert.equal(under.warning, null);
    const near = usageText(stats({ cost: 4, budget: 5, prompt: 1000 }));
    assert.equal(near.warning, '80 % of the budget ($5.00) used');
    const full = usageText(stats({ cost: 0.1, prompt: 1000, contextWindow: 100_000, perTurn: 85_000 }));
    assert.equal(full.warning, 'The context window is 85 % full');
    const both = usageText(stats({ cost: 6, budget: 5, contextWindow: 1000, perTurn: 900 }));
    assert.equal(both.warning, '120 % of the budget ($5.00) used; the context window is 90 % full');
  });

  it('breaks the figures down exactly, with the other LLMs’ cost apart', () => {
    const text = usageText(
      stats(
        {
          cost: 0.42,
          budget: 5,
          prompt: 200_000,
          completion: 15_000,
          cacheRead: 120_000,
          cacheWrite: 8000,
          reasoning: 2000,
          contextWindow: 200_000,
          perTurn: 116_000,
        },
        { condenser: { cost: 0.03, prompt: 9000, completion: 400 } },
      ),
    );
    assert.deepEqual(text.breakdown, [
      { label: 'Cost', value: '$0.42 of $5.00' },
      { label: 'Prompt tokens', value: '200,000' },
      { label: 'Completion tokens', value: '15,000' },
      { label: 'Cache read tokens', value: '120,000' },
      { label: 'Cache write tokens', value: '8,000' },
      { label: 'Reasoning tokens', value: '2,000' },
      { label: 'Newest call', value: '116,000 tokens' },
      { label: 'Context window', value: '200,000 tokens (58 % used)' },
      { label: 'condenser (another LLM)', value: '$0.03 · 9.4k tokens' },
    ]);
  });
});
