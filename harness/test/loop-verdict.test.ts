import { describe, expect, it } from 'vitest';
import { loopVerdict, withLoopVerdicts } from '../src/report/loop-verdict.ts';
import { loopSentence } from '../src/report/text/sentences.ts';
import { makeCell } from './fixtures.ts';

describe('loopVerdict', () => {
  it('reads the ticks share first: held, free, or between', () => {
    expect(loopVerdict({ ticksShare: 0 })).toBe('stayed');
    expect(loopVerdict({ ticksShare: 0.1 })).toBe('stayed');
    expect(loopVerdict({ ticksShare: 0.3 })).toBe('partly');
    expect(loopVerdict({ ticksShare: 0.5 })).toBe('left');
    expect(loopVerdict({ ticksShare: 0.95, lagP99Ms: 1, syncLagP99Ms: 20 })).toBe('left');
  });

  it("a free check whose loop lag under load was over half of sync's is only partly", () => {
    expect(loopVerdict({ ticksShare: 0.9, lagP99Ms: 12, syncLagP99Ms: 20 })).toBe('partly');
    expect(loopVerdict({ ticksShare: 0.9, lagP99Ms: 19, syncLagP99Ms: 20 })).toBe('partly');
    // Held ticks stay held whatever the lag says.
    expect(loopVerdict({ ticksShare: 0.02, lagP99Ms: 1, syncLagP99Ms: 20 })).toBe('stayed');
  });

  it('without a check, the lag alone decides; a sync lag under 5 ms says nothing', () => {
    expect(loopVerdict({ lagP99Ms: 2, syncLagP99Ms: 20 })).toBe('left');
    expect(loopVerdict({ lagP99Ms: 13, syncLagP99Ms: 20 })).toBe('partly');
    expect(loopVerdict({ lagP99Ms: 16, syncLagP99Ms: 20 })).toBe('stayed');
    expect(loopVerdict({ lagP99Ms: 4, syncLagP99Ms: 4 })).toBeUndefined();
    expect(loopVerdict({ ticksShare: 0.9, lagP99Ms: 4, syncLagP99Ms: 4 })).toBe('left');
    expect(loopVerdict({})).toBeUndefined();
  });
});

describe('withLoopVerdicts', () => {
  const sync = makeCell({ runtime: 'deno', scenario: 'gzip', mode: 'sync', eventLoopLagMs: { p99: 15, max: 20 }, loop: { ticksShare: 0 } });
  const async = makeCell({
    runtime: 'deno',
    scenario: 'gzip',
    mode: 'async',
    eventLoopLagMs: { p99: 14, max: 20 },
    loop: { ticksShare: 0.02 },
  });
  const worker = makeCell({ runtime: 'deno', scenario: 'gzip', mode: 'worker', eventLoopLagMs: { p99: 1, max: 2 } });
  const otherRuntime = makeCell({ runtime: 'node', scenario: 'gzip', mode: 'worker', eventLoopLagMs: { p99: 1, max: 2 } });

  it('puts a verdict on off-loop cells only, against the sync cell of their own runtime', () => {
    const [s, a, w, o] = withLoopVerdicts([sync, async, worker, otherRuntime]);
    expect(s?.loop).toEqual({ ticksShare: 0 });
    expect(a?.loop).toEqual({ ticksShare: 0.02, verdict: 'stayed' });
    // No check on this cell: its lag against deno's sync decides.
    expect(w?.loop).toEqual({ verdict: 'left' });
    // No check and no sync cell on node: nothing to say.
    expect(o?.loop).toBeUndefined();
  });

  it('says it in words with the evidence', () => {
    const [, a] = withLoopVerdicts([sync, async]);
    expect(loopSentence('deno', a, sync)).toBe(
      "deno: async stayed on the loop (2.0 % of an idle loop's timer ticks ran during its calls; loop lag p99 14.0 ms against sync's 15.0 ms; probe p99 2.00 ms against sync's 2.00 ms)",
    );
    expect(loopSentence('deno', sync, sync)).toBeUndefined();
  });
});
