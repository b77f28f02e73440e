// A seed claim's measured ratio in the report's one vocabulary: requests as faster / slower, times
// per request with the word their speed gets, each wording held to the rule verdict-words states.
import { describe, expect, it } from 'vitest';
import { claimWords, measuredWords } from '../src/seeds/claim-words.ts';

const row = (claim: '000-bcrypt' | '002-async-fib' | '002-busy-fib', median: number, ci95: [number, number]) => ({
  claim,
  status: 'ok' as const,
  ratio: { runs: [median], median, ci95 },
});

describe("a seed claim's measured ratio", () => {
  it('reads a ratio of requests served as a speed: narrow on one side of 1 is sized, wide is a direction only', () => {
    expect(measuredWords(row('000-bcrypt', 1.85, [1.75, 1.96]))).toBe('faster: 1.85x, 1.75–1.96x');
    expect(measuredWords(row('000-bcrypt', 2.56, [1.1, 5.8]))).toBe('faster, 1.10 to 5.80 times as fast (too uncertain to size)');
  });

  it('reads a ratio of times per request the other way round: above 1 is slower, the figures kept as times', () => {
    expect(measuredWords(row('002-async-fib', 107, [91.21, 126]))).toBe('slower: 107.00x the time, 91.21–126.00x');
    expect(measuredWords(row('002-async-fib', 83.67, [31.6, 220]))).toBe('slower, 31.60–220.00x the time (too uncertain to size)');
    expect(measuredWords(row('002-busy-fib', 0.5, [0.45, 0.55]))).toMatch(/^faster: 0\.50x the time/);
  });

  it('says "no gain" only where the interval rules out ±10 %, and "could not tell" where it reaches past it', () => {
    expect(measuredWords(row('002-busy-fib', 1.01, [1.0, 1.02]))).toBe('no gain: 1.01x the time, 1.00–1.02x');
    expect(measuredWords(row('002-busy-fib', 1.14, [0.95, 1.25]))).toBe('could not tell: 0.95–1.25x the time');
    expect(measuredWords(row('000-bcrypt', 1.0, [0.8, 1.1]))).toBe('could not tell: 0.80–1.10x');
    expect(measuredWords({ claim: '000-bcrypt', status: 'skipped', ratio: undefined })).toBe('could not tell: skipped');
  });
});

describe("a seed claim's verdict", () => {
  it('uses "could not tell" for an interval too wide to judge, as every other verdict does', () => {
    expect(claimWords('inconclusive', 2.29)).toBe('could not tell');
    expect(claimWords('not measured', 2.29)).toBe('could not tell: not measured');
    expect(claimWords('holds', 2.29)).toBe('claim holds');
    expect(claimWords('partly', 2.29)).toBe('partly: its direction, not its size');
    expect(claimWords('partly', 1)).toBe('partly: a small difference');
    // A claim of no difference inside an interval that reaches past ±10 % is not shown, only not refuted.
    expect(claimWords('holds', 1, [0.98, 1.03])).toBe('claim holds');
    expect(claimWords('holds', 1, [0.68, 1.36])).toBe('not refuted: could not tell');
    expect(claimWords('holds', 2.29, [1.75, 2.5])).toBe('claim holds');
  });
});
