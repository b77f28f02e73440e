/** The one vocabulary of verdicts, each wording held to the rule it stands for. */
import { describe, expect, it } from 'vitest';
import { cellsDoubt, NO_DIFFERENCE_WITHIN, WIDEST_READABLE } from '../src/present/ratio-verdict.ts';
import { bystanderWords, cpuWords, plainLegend, verdictLegend, verdictWords } from '../src/present/verdict-words.ts';

describe('verdictWords', () => {
  it('says faster or slower with the ratio and interval where the interval lies on one side of 1 and can size it', () => {
    expect(verdictWords({ ratio: 1.82, ci: [1.65, 2.01] }).text).toBe('faster: 1.82x, 1.65–2.01x');
    expect(verdictWords({ ratio: 0.41, ci: [0.39, 0.43] }).text).toBe('slower: 0.41x, 0.39–0.43x');
  });

  it(`says the direction, not the size, where the interval is on one side of 1 but over ${WIDEST_READABLE}x end to end`, () => {
    const faster = verdictWords({ ratio: 1.48, ci: [1.15, 1.9] });
    expect(faster.text).toBe('faster, by 15 to 90 % (too uncertain to size)');
    expect(faster.kind).toBe('unsized');
    expect(verdictWords({ ratio: 0.5, ci: [0.3, 0.8] }).text).toBe('slower, by 20 to 70 % (too uncertain to size)');
    expect(verdictWords({ ratio: 4, ci: [3.2, 5.4] }).text).toBe('faster, 3.20 to 5.40 times as fast (too uncertain to size)');
    // Just narrow enough to size: a figure, not "too uncertain".
    expect(verdictWords({ ratio: 1.25, ci: [1.05, 1.55] }).kind).toBe('sized');
  });

  it(`says no gain only where an interval holding 1 rules out a change beyond ±${NO_DIFFERENCE_WITHIN * 100} %`, () => {
    expect(verdictWords({ ratio: 0.99, ci: [0.96, 1.03] }).text).toBe('no gain: 0.99x, 0.96–1.03x');
    expect(verdictWords({ ratio: 1.0, ci: [0.9, 1.1] }).kind).toBe('no-gain');
    // Holds 1 but reaches past the margin, or too wide: could not tell, with the interval only.
    expect(verdictWords({ ratio: 0.89, ci: [0.77, 1.04] }).text).toBe('could not tell: 0.77–1.04x');
    expect(verdictWords({ ratio: 0.9, ci: [0.73, 1.1] }).text).toBe('could not tell: 0.73–1.10x');
    expect(verdictWords({ ratio: 1.48, ci: [0.91, 2.43] }).kind).toBe('unclear');
  });

  it('says could not tell with the reason, and no figure, where the cells cannot carry one', () => {
    const shared = { mode: 'async', status: 'ok', flags: ['shared-host'] } as const;
    const failed = { mode: 'sync', status: 'failed', flags: [] } as const;
    const words = verdictWords({ ratio: 1.8, ci: [1.7, 1.9], doubt: cellsDoubt([shared, failed]) });
    expect(words.text).toBe('could not tell: the sync server failed, the host was shared during async');
    expect(words.text).not.toMatch(/1\.8/);
    expect(words.kind).toBe('no-data');
  });

  it('gives the ratio alone where there is no interval', () => {
    expect(verdictWords({ ratio: 1.48 }).text).toBe('1.48x (too few runs for an interval)');
  });
});

describe('the legend', () => {
  it('lists only the kinds asked for, every kind by default', () => {
    expect(verdictLegend()).toHaveLength(6);
    const two = plainLegend(['sized', 'unclear']);
    expect(two).toHaveLength(2);
    expect(two.join(' ')).toMatch(/faster \/ slower.*could not tell/);
    expect(two.join(' ')).not.toMatch(/\*\*|no gain|too uncertain/);
  });
});

describe('costs and bystanders in words', () => {
  it('says how many times less or longer a bystander waits, and about as long within ±5 %', () => {
    expect(bystanderWords(0.0058)).toBe('waits 172x less');
    expect(bystanderWords(0.37)).toBe('waits 2.7x less');
    expect(bystanderWords(1.35)).toBe('waits 1.4x longer');
    expect(bystanderWords(1.04)).toBe('waits about as long');
  });

  it('says the same CPU within ±5 %, else how much more or less', () => {
    expect(cpuWords(1.02)).toBe('the same CPU');
    expect(cpuWords(1.13)).toBe('13 % more CPU');
    expect(cpuWords(0.72)).toBe('28 % less CPU');
  });
});
