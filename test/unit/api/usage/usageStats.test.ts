// A conversation's usage read from the agent server's `stats` update and from the app server's
// `metrics`: the agent's LLM first, the others beside it, every field optional, hostile figures kept
// finite, non-negative and few.
import assert from 'node:assert/strict';
import { sameStats, statsFromMetrics, statsFromUpdate } from '../../../../src/api/usage/usageStats';
import { statsValue } from '../../../shared/agentEvents';

describe('usageStats: what the LLM calls cost and used', () => {
  it('reads the agent’s LLM as the main one and the others beside it, in the order sent', () => {
    const stats = statsFromUpdate(
      statsValue({
        condenser: { cost: 0.03, prompt: 9000, completion: 400 },
        agent: {
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
      }),
    );
    assert.ok(stats);
    assert.deepEqual(stats.main, {
      usageId: 'agent',
      cost: 0.42,
      budget: 5,
      tokens: { prompt: 200_000, completion: 15_000, cacheRead: 120_000, cacheWrite: 8000, reasoning: 2000 },
      contextWindow: 200_000,
      lastTurnTokens: 116_000,
    });
    assert.deepEqual(
      stats.others.map((other) => [other.usageId, other.cost]),
      [['condenser', 0.03]],
    );
  });

  it('counts the saved profiles the agent was switched to with the agent’s LLM; the context from the newest', () => {
    // switch_profile registers the profile's LLM under a usage id of its own (SDK 1.34): its calls
    // are counted there, and the header must not stop counting at the switch
    const stats = statsFromUpdate(
      statsValue({
        agent: { cost: 0.5, budget: 5, prompt: 1000, completion: 100, contextWindow: 100_000, perTurn: 1100 },
        condenser: { cost: 0.01, prompt: 50, completion: 5 },
        'profile:fast:0123456789ab': {
          cost: 0.25,
          budget: 5,
          prompt: 300,
          completion: 30,
          cacheRead: 7,
          contextWindow: 50_000,
          perTurn: 330,
        },
      }),
    );
    assert.ok(stats);
    assert.deepEqual(stats.main, {
      usageId: 'agent',
      cost: 0.75,
      budget: 5,
      tokens: { prompt: 1300, completion: 130, cacheRead: 7, cacheWrite: 0, reasoning: 0 },
      contextWindow: 50_000,
      lastTurnTokens: 330,
    });
    assert.deepEqual(
      stats.others.map((other) => other.usageId),
      ['condenser'],
    );
  });

  it('takes the first LLM when none is the agent’s, and says nothing for an empty or unreadable update', () => {
    assert.equal(statsFromUpdate(statsValue({ helper: { cost: 1 } }))?.main.usageId, 'helper');
    // full_state before the first call carries `{"usage_to_metrics": {}}`
    assert.equal(statsFromUpdate({ usage_to_metrics: {} }), undefined);
    for (const value of [null, 'stats', [], { usage_to_metrics: [] }, { usage_to_metrics: { agent: 7 } }])
      assert.equal(statsFromUpdate(value), undefined, JSON.stringify(value));
  });

  it('reads an older server’s metrics without token usage as zeros', () => {
    const stats = statsFromUpdate({ usage_to_metrics: { agent: { accumulated_cost: 0.1 } } });
    assert.deepEqual(stats?.main, {
      usageId: 'agent',
      cost: 0.1,
      budget: null,
      tokens: { prompt: 0, completion: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      contextWindow: 0,
      lastTurnTokens: 0,
    });
  });

  it('keeps hostile figures finite, non-negative, whole for tokens and bounded; names clipped; few LLMs', () => {
    const hostile = {
      usage_to_metrics: {
        ['a'.repeat(10_000)]: {
          accumulated_cost: -3,
          max_budget_per_task: 0,
          accumulated_token_usage: {
            prompt_tokens: 1e300,
            completion_tokens: Number.NaN,
            cache_read_tokens: '5',
            cache_write_tokens: 2.7,
            reasoning_tokens: Infinity,
            context_window: -1,
            per_turn_token: null,
          },
        },
        ...Object.fromEntries(
          Array.from({ length: 100 }, (_, index) => [`llm${index}`, { accumulated_cost: 1 }]),
        ),
      },
    };
    const stats = statsFromUpdate(hostile);
    assert.ok(stats);
    assert.equal(stats.main.usageId.length, 100);
    assert.equal(stats.main.cost, 0);
    assert.equal(stats.main.budget, null, 'a budget of 0 is none');
    assert.deepEqual(stats.main.tokens, {
      prompt: 1e15,
      completion: 0,
      cacheRead: 0,
      cacheWrite: 3,
      reasoning: 0,
    });
    assert.equal(stats.main.contextWindow, 0);
    assert.ok(stats.others.length < 16);
  });

  it('reads the app server’s metrics as the agent’s, and none while its agent has not called its LLM', () => {
    const listed = {
      model_name: 'default',
      accumulated_cost: 1.5,
      max_budget_per_task: 5,
      accumulated_token_usage: { prompt_tokens: 1000, completion_tokens: 100, context_window: 200_000 },
    };
    assert.equal(statsFromMetrics(listed)?.main.cost, 1.5);
    assert.equal(statsFromMetrics(listed)?.main.budget, 5);
    // 1.11 rebuilds the metrics from its columns: zeros for a conversation never run
    const never = {
      model_name: 'default',
      accumulated_cost: 0,
      accumulated_token_usage: { prompt_tokens: 0 },
    };
    assert.equal(statsFromMetrics(never), undefined);
    assert.equal(statsFromMetrics(null), undefined);
  });

  it('tells the same figures apart from new ones', () => {
    const a = statsFromUpdate(statsValue({ agent: { cost: 0.1, prompt: 10 } }));
    const b = statsFromUpdate(statsValue({ agent: { cost: 0.1, prompt: 10 } }));
    const c = statsFromUpdate(statsValue({ agent: { cost: 0.2, prompt: 10 } }));
    assert.ok(sameStats(a, b));
    assert.ok(!sameStats(a, c));
  });
});
