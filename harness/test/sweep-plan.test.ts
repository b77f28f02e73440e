import { describe, expect, it } from 'vitest';
import { parsePlan } from '../src/bench/plan.ts';
import { inputParameters, sizedCells } from '../src/bench/sweep-plan.ts';
import { reportParameters } from '../src/bench/settings.ts';
import { cellsFor, scenarioModule, scenarioSettings } from '../src/servers/scenarios.ts';

const settings = scenarioSettings({ dataDir: '', hashCost: 10, fibN: 28, sleepMs: 20 });

describe('--sweep', () => {
  it('plans the scenario alone, its values ascending and deduplicated, recorded in the parameters', () => {
    const plan = parsePlan(['--sweep', 'json:kb=256,16,64,16']);
    expect(plan.sweep).toEqual({ scenario: 'json', parameter: 'kb', values: ['16', '64', '256'] });
    expect(plan.scenarios).toEqual(['json']);
    expect(reportParameters(plan, { cold: undefined, noWrk: undefined }).sweep).toEqual(plan.sweep);
  });

  it('fits bench:catalogue (--scenarios catalogue holds json) and --modes that keep sync and worker', () => {
    expect(parsePlan(['--scenarios', 'catalogue', '--sweep', 'gzip:kb=1,4096']).scenarios).toEqual(['gzip']);
    expect(parsePlan(['--modes', 'sync,worker', '--sweep', 'render:rows=10,100']).sweep?.parameter).toBe('rows');
  });

  it('refuses each wrong use in one line naming what is wrong', () => {
    const refused =
      (...argv: string[]) =>
      () =>
        parsePlan(argv);
    expect(refused('--sweep', 'json')).toThrow(/--sweep takes SCENARIO:PARAMETER=V1,V2,... \(e\.g\. json:kb=16,64,256\), got "json"/);
    expect(refused('--sweep', 'jsn:kb=1,2')).toThrow(/--sweep: unknown scenario "jsn"/);
    expect(refused('--sweep', 'hello:n=1,2')).toThrow(/--sweep: unknown scenario "hello"/);
    expect(refused('--sweep', 'hash:cost=4,5')).toThrow(/--sweep: hash has no parameter "cost" \(its input\(\) reads none\)/);
    expect(refused('--sweep', 'json:mb=1,2')).toThrow(/--sweep: json has no parameter "mb"; its input\(\) reads kb/);
    expect(refused('--sweep', 'json:kb=16,9000')).toThrow(/--sweep: json kb=9000: kb must be an integer from 1 to 8192, got "9000"/);
    expect(refused('--sweep', 'json:kb=16,big')).toThrow(/--sweep: kb values must be plain numbers \(sizes\), got "big"/);
    expect(refused('--sweep', 'json:kb=16,16')).toThrow(/--sweep: give two values of kb or more/);
    expect(refused('--sweep', 'json:kb=1,2', '--connections', '1,10')).toThrow(/not with a --connections list/);
    expect(refused('--sweep', 'json:kb=1,2', '--scenarios', 'fib')).toThrow(/--sweep json: not among --scenarios fib/);
    expect(refused('--sweep', 'json:kb=1,2', '--modes', 'worker')).toThrow(/--modes worker must keep both/);
  });

  it('measures sync, worker and async when the module has one, even where its default modes leave the worker out', () => {
    expect(parsePlan(['--sweep', 'json:kb=1,2']).modes).toEqual(['sync', 'worker']);
    expect(parsePlan(['--sweep', 'sleep:ms=1,5']).modes).toEqual(['sync', 'worker', 'async']);
    expect(parsePlan(['--sweep', 'sleep:ms=1,5', '--modes', 'worker,sync']).modes).toEqual(['worker', 'sync']);
  });

  it('knows a module parameter by what its input() reads', () => {
    const gzip = scenarioModule('gzip');
    expect(gzip).toBeDefined();
    if (gzip !== undefined) expect(inputParameters(gzip, settings).sort()).toEqual(['codec', 'kb']);
  });

  it('gives each value its own cells, value by value, with the query in the path', () => {
    const plan = parsePlan(['--sweep', 'json:kb=16,64']);
    const cells = sizedCells(cellsFor(plan.scenarios), plan.sweep ?? { scenario: '', parameter: '', values: [] });
    expect(cells.map((c) => [c.mode, c.path, c.route, c.query])).toEqual([
      ['sync', '/json/sync?kb=16', '/json/sync', 'kb=16'],
      ['worker', '/json/worker?kb=16', '/json/worker', 'kb=16'],
      ['sync', '/json/sync?kb=64', '/json/sync', 'kb=64'],
      ['worker', '/json/worker?kb=64', '/json/worker', 'kb=64'],
    ]);
  });
});
