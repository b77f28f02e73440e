import { describe, expect, it } from 'vitest';
import { FlagError } from '../src/cli/flags.ts';
import { FULL, parsePlan, QUICK } from '../src/bench/plan.ts';

describe('parsePlan', () => {
  it('defaults to every runtime and scenario with the full plan', () => {
    const plan = parsePlan([]);
    expect(plan.runtimes).toEqual(['node', 'bun', 'deno']);
    expect(plan.scenarios).toEqual(['hello', 'hash', 'file', 'fib', 'sleep']);
    expect(plan).toMatchObject({
      ...FULL,
      connections: [FULL.connections],
      quick: false,
      modes: undefined,
      hashCost: 10,
      fibN: 28,
      sleepMs: 20,
    });
  });

  it('--quick shortens the runs; explicit flags still win', () => {
    expect(parsePlan(['--quick'])).toMatchObject({ ...QUICK, connections: [QUICK.connections], quick: true });
    expect(parsePlan(['--quick', '--runs', '5', '--duration', '1.5'])).toMatchObject({
      runs: 5,
      durationSec: 1.5,
      warmupSec: QUICK.warmupSec,
    });
  });

  it('cross-checks the hello cells with wrk by default; all, a list or none on request', () => {
    expect(parsePlan([]).crossCheck).toEqual(['hello']);
    expect(parsePlan(['--cross-check', 'none']).crossCheck).toEqual([]);
    // --quick leaves wrk out (its runs are whole seconds); asking for it brings it back.
    expect(parsePlan(['--quick']).crossCheck).toEqual([]);
    expect(parsePlan(['--quick', '--cross-check', 'hello']).crossCheck).toEqual(['hello']);
    expect(parsePlan(['--quick'])).toMatchObject({ minRequests: 10, durationSec: 0.3 });
    expect(parsePlan(['--quick', '--min-requests', '20'])).toMatchObject({ minRequests: 20 });
    expect(parsePlan(['--cross-check', 'all']).crossCheck).toEqual(['hello', 'hash', 'file', 'fib', 'sleep']);
    expect(parsePlan(['--cross-check', 'sleep,hello']).crossCheck).toEqual(['sleep', 'hello']);
    expect(() => parsePlan(['--cross-check', 'nap'])).toThrow(/--cross-check: unknown "nap"/);
  });

  it('reads the schedule, a CV target and its cap', () => {
    expect(parsePlan([]).schedule).toBe('interleaved');
    expect(parsePlan(['--schedule', 'sequential']).schedule).toBe('sequential');
    expect(() => parsePlan(['--schedule', 'random'])).toThrow(/--schedule: unknown "random"; accepted: interleaved, sequential/);
    expect(parsePlan(['--target-cv', '0.05'])).toMatchObject({ targetCv: 0.05, maxRuns: 12 });
    // A precision target and budget by default; none with --quick; 0 turns it off
    expect(parsePlan([])).toMatchObject({ targetPrecision: 0.05, budgetSec: 210, runs: 4, durationSec: 1 });
    expect(parsePlan(['--quick']).targetPrecision).toBeUndefined();
    expect(parsePlan(['--target-precision', '0']).targetPrecision).toBeUndefined();
    expect(parsePlan(['--runs', '3']).targetPrecision).toBeUndefined();
    expect(parsePlan(['--runs', '3', '--target-precision', '0.03']).targetPrecision).toBe(0.03);
    expect(parsePlan(['--target-cv', '0.05', '--max-runs', '6'])).toMatchObject({ maxRuns: 6 });
    expect(() => parsePlan(['--runs', '5', '--max-runs', '4'])).toThrow(/--max-runs must be an integer from 5/);
  });

  it('reads lists, dropping repeats', () => {
    const plan = parsePlan(['--runtimes', 'deno,bun,deno', '--scenarios', 'sleep, hash', '--modes', 'sync']);
    expect(plan.runtimes).toEqual(['deno', 'bun']);
    expect(plan.scenarios).toEqual(['sleep', 'hash']);
    expect(plan.modes).toEqual(['sync']);
  });

  it.each([
    [['--runtimes', 'node,java'], /--runtimes: unknown "java"; accepted: node, bun, deno/],
    [['--scenarios', 'fibb'], /--scenarios: unknown "fibb"; accepted: hello, hash, file, fib, sleep/],
    [['--scenarios', ','], /--scenarios is empty/],
    [['--duration', '0'], /--duration must be a number from 0.1 to 3600, got "0"/],
    [['--duration=-3'], /--duration must be a number from 0.1 to 3600, got "-3"/],
    [['--connections', '0'], /--connections must be an integer from 1 to 10000/],
    [['--connections', '2.5'], /--connections must be an integer/],
    [['--runs', 'many'], /--runs must be an integer/],
    [['--hash-cost', '3'], /--hash-cost must be an integer from 4 to 13/],
    [['--modes', 'baseline', '--scenarios', 'sleep'], /--modes baseline selects no cell of --scenarios sleep/],
    [['--frobnicate'], /Unknown option '--frobnicate'/],
    [['stray'], /Unexpected argument 'stray'/],
  ])('%j is refused with one clear line', (argv, message) => {
    expect(() => parsePlan(argv)).toThrow(FlagError);
    expect(() => parsePlan(argv)).toThrow(message);
  });

  it('extends the default warm-up until steady, but takes a --warmup given by hand as it is', () => {
    expect(parsePlan([])).toMatchObject({ warmupSec: 0.5, warmupMaxSec: 3, minRequests: 20, drainCapSec: 15 });
    expect(parsePlan(['--quick'])).toMatchObject({ warmupSec: 0.1, warmupMaxSec: 0.3 });
    expect(parsePlan(['--warmup', '0.2'])).toMatchObject({ warmupSec: 0.2, warmupMaxSec: 0.2 });
    expect(parsePlan(['--warmup', '0'])).toMatchObject({ warmupSec: 0, warmupMaxSec: 0 });
    expect(parsePlan(['--warmup', '0.2', '--warmup-max', '2'])).toMatchObject({ warmupMaxSec: 2 });
    expect(() => parsePlan(['--warmup', '1', '--warmup-max', '0.5'])).toThrow(/--warmup-max/);
  });
});

describe('the catalogue group', () => {
  it('stays out of the default plan and is measured when --scenarios names it', () => {
    expect(parsePlan([]).scenarios).toEqual(['hello', 'hash', 'file', 'fib', 'sleep']);
    const catalogue = parsePlan(['--scenarios', 'catalogue']).scenarios;
    expect(catalogue).toEqual(expect.arrayContaining(['json', 'gzip', 'kdf', 'sqlite', 'render', 'regex', 'starve']));
    expect(catalogue).not.toContain('fib');
    expect(parsePlan(['--scenarios', 'fib,catalogue,gzip']).scenarios.filter((s) => s === 'gzip')).toHaveLength(1);
  });
});
