import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AB_PLAN, abExitCode, abSchedule, splitAbFlags } from '../src/ab/ab-flags.ts';
import { abProcessPairNeed, processPairsStillNeeded } from '../src/ab/ab-rounds.ts';
import { abConsole, abHeadline, abMarkdown, compareAb, processPairsAdvice, verdictLine } from '../src/ab/ab-section.ts';
import { abNeed, judgeAb, judgeRatio } from '../src/ab/ab-verdict.ts';
import { parsePlan } from '../src/bench/plan.ts';
import { restartsBefore } from '../src/bench/run-rules.ts';
import { unknownServerFlags, withoutFlags } from '../src/ab/ref.ts';
import { checkPair, parseVariant } from '../src/ab/variants.ts';
import type { AbCell, AbPlan } from '../src/model/ab.ts';
import type { Report } from '../src/model/report.ts';
import { ratioText } from '../src/stats/paired.ts';
import { makeCell, makeRun } from './fixtures.ts';

const resolvePath = (p: string) => `/abs/${p}`;

describe('parseVariant', () => {
  it('reads each kind', () => {
    expect(parseVariant('a', 'env:UV_THREADPOOL_SIZE=8,X=', resolvePath)).toEqual({
      kind: 'env',
      raw: 'env:UV_THREADPOOL_SIZE=8,X=',
      env: { UV_THREADPOOL_SIZE: '8', X: '' },
    });
    expect(parseVariant('a', 'runtime:node@24', resolvePath)).toMatchObject({ kind: 'runtime', request: { name: 'node', version: '24' } });
    expect(parseVariant('b', 'ref:HEAD', resolvePath)).toMatchObject({
      kind: 'ref',
      raw: 'ref:HEAD',
      ref: 'HEAD',
      commit: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
  });

  it('refuses what is not a variant, in one line naming the flag', () => {
    expect(() => parseVariant('a', 'fast', resolvePath)).toThrow(/^--a fast: a variant is file:/);
    expect(() => parseVariant('b', 'env:1X=2', resolvePath)).toThrow('--b env:1X=2: "1X=2" is not KEY=VALUE');
    expect(() => parseVariant('b', 'env:', resolvePath)).toThrow(/a variant is/);
    expect(() => parseVariant('a', 'runtime:python@3', resolvePath)).toThrow(/^--a runtime:python@3: unknown "python"/);
    expect(() => parseVariant('a', 'file:nope.ts', resolvePath)).toThrow('--a file:nope.ts: no such file: /abs/nope.ts');
    expect(() => parseVariant('b', 'ref:no-such-ref-here', resolvePath)).toThrow(
      /^--b ref:no-such-ref-here: not a commit of this repository/,
    );
  });

  it('wants both sides of one kind, and one runtime for runtime: pairs', () => {
    const env = parseVariant('a', 'env:A=1', resolvePath);
    expect(() => checkPair(env, parseVariant('b', 'runtime:node', resolvePath))).toThrow(/both sides must be of one kind/);
    expect(() => checkPair(parseVariant('a', 'runtime:node', resolvePath), parseVariant('b', 'runtime:bun', resolvePath))).toThrow(
      /two installations of one runtime/,
    );
    expect(() => checkPair(env, parseVariant('b', 'env:A=2', resolvePath))).not.toThrow();
  });
});

describe('splitAbFlags', () => {
  it('takes --a, --b and --margin out and leaves the bench flags', () => {
    expect(splitAbFlags(['--a', 'env:A=1', '--quick', '--b=env:A=2', '--margin', '3', '--runtimes', 'node'])).toEqual({
      a: 'env:A=1',
      b: 'env:A=2',
      margin: 0.03,
      strict: false,
      rest: ['--quick', '--runtimes', 'node'],
    });
    expect(splitAbFlags(['--a', 'x', '--b', 'y']).margin).toBe(0.05);
    expect(splitAbFlags(['--a', 'x', '--strict', '--b', 'y'])).toMatchObject({ strict: true, rest: [] });
  });

  it('refuses a missing side, a missing value and a repeat', () => {
    expect(() => splitAbFlags(['--a', 'env:A=1'])).toThrow(/needs --a VARIANT and --b VARIANT/);
    expect(() => splitAbFlags(['--a', '--b', 'x'])).toThrow('--a needs a value');
    expect(() => splitAbFlags(['--a', 'x', '--a', 'y', '--b', 'z'])).toThrow('--a given twice');
    expect(() => splitAbFlags(['--a', 'x', '--b', 'y', '--margin', '0'])).toThrow(/--margin/);
  });
});

describe('judgeRatio', () => {
  it('regressed: the interval excludes 1 and the change is at least 0.6 of the margin', () => {
    const j = judgeRatio(0.95, [0.93, 0.97], 8, 0.05);
    expect(j.verdict).toBe('regressed');
    // its half-width (2.1 %) is under the flag's floor (3 %), which is then the smallest change it flags
    expect(j.detectable).toBe(0.03);
    // significant, but under the floor: not a regression
    expect(judgeRatio(0.972, [0.955, 0.99], 8, 0.05).verdict).toBe('unchanged');
    expect(judgeRatio(1.06, [1.03, 1.09], 8, 0.05).verdict).toBe('improved');
    // Judged as computed, kept to 4 significant figures or as many more as keep a bound that is
    // not 1 off 1: a lower bound of 1.00004 excludes 1, and so does what the report keeps and shows.
    const offOne = judgeRatio(1.031, [1.00004, 1.0629], 8, 0.05);
    expect(offOne).toMatchObject({ verdict: 'improved', ci95: [1.00004, 1.063] });
    expect(judgeRatio(offOne.ratio ?? 0, offOne.ci95 ?? [0, 0], 8, 0.05).verdict).toBe('improved');
    expect([ratioText(1.00004), ratioText(0.99996), ratioText(1), ratioText(1.0629)]).toEqual(['1.00004', '0.99996', '1.000', '1.063']);
  });

  it('unchanged: the whole interval within the margin, even when a small change is significant', () => {
    expect(judgeRatio(1.0, [0.98, 1.02], 8, 0.05)).toMatchObject({ verdict: 'unchanged', detectable: 0.03 });
    expect(judgeRatio(0.99, [0.985, 0.995], 8, 0.05).verdict).toBe('unchanged');
  });

  it('inconclusive when the interval is wider than the margin, with why and the smallest change it could flag', () => {
    const j = judgeRatio(0.97, [0.9, 1.045], 4, 0.05);
    expect(j.verdict).toBe('inconclusive');
    expect(j.detectable).toBeCloseTo(0.0776, 3);
    expect(j.reason).toMatch(/wider than ±5.0 %: this pair could flag only a change over 7.8 %/);
  });

  it('says how many process pairs a wide interval would need, at its spread, to see the margin', () => {
    // Half-width 7.5 % (log) on 4 pairs: t(3)/sqrt(4) = 1.591 must fall to 0.526 of it for 2.5 %,
    // and t(16)/sqrt(17) = 0.514 is the first that does.
    const wide = judgeRatio(0.97, [0.9, 1.045], 8, 0.05, 4);
    expect(wide.pairsNeeded).toBe(17);
    expect(wide.reason).toMatch(
      /about 17 pairs of server processes would let it see ±5.0 % 9 times in 10: give it those \(--budget; the report says how much\)/,
    );
    // Without pairs of processes (rounds on one pair) there is no spread over pairs to scale.
    expect(judgeRatio(0.97, [0.9, 1.045], 8, 0.05).pairsNeeded).toBeUndefined();
    // Narrow enough, off centre (+2.9 %, under the 3 % it flags): more pairs are not what it lacks.
    const offCentre = judgeRatio(1.029, [1.005, 1.055], 16, 0.05, 8);
    expect([offCentre.verdict, offCentre.pairsNeeded]).toEqual(['inconclusive', undefined]);
    const hopeless = judgeRatio(1, [0.3, 3], 6, 0.05, 3);
    expect(hopeless.pairsNeeded).toBeUndefined();
    expect(hopeless.reason).toMatch(/even 400 pairs of server processes would not let it see ±5.0 %/);
    // At a glance: the verdict, the estimate, and why in a few words with what would settle it.
    // judgeAb adds the pairs of processes the interval was over; judgeRatio was given 4 for `wide`.
    const line = (j: ReturnType<typeof judgeRatio>) =>
      verdictLine({ runtime: 'node', scenario: 'hash', mode: 'sync', processPairs: 4, ...j } as AbCell);
    expect(wide.why).toBe('wide');
    expect(line(wide)).toBe(
      'could not tell, B -3.0 % (-10.0 % to +4.5 %), could see 7.8 %: interval wider than ±5.0 %; about 17 pairs of server processes would see ±5.0 % (it had 4)',
    );
    expect(offCentre.why).toBe('off-centre');
    expect(line(offCentre)).toMatch(/: interval reaches past ±5\.0 %; only more pairs than the rule asks \(--runs\) would say which side$/);
    expect(line(hopeless)).toMatch(/: interval wider than ±5\.0 %; a quieter host$/);
  });

  it('inconclusive, and says so without calling it wide, when a narrow interval reaches past the margin', () => {
    // excludes 1, but -2 % is under the 3 % it flags, and the interval reaches past -5 %
    const small = judgeRatio(0.98, [0.94, 0.999], 4, 0.05);
    expect(small.verdict).toBe('inconclusive');
    expect(small.reason).toMatch(
      /^its 95 % interval \(0.9400-0.9990x\) reaches past the margin's lower bound, 0.9524x \(1\/1.05\) and its -2.0 % is under the 3.0 % it flags: /,
    );
    // holds 1, half-width 3.5 %, off centre past +5 %
    const high = judgeRatio(1.02, [0.986, 1.055], 8, 0.05);
    expect(high.verdict).toBe('inconclusive');
    expect(high.reason).toMatch(
      /reaches past the margin's upper bound, 1.0500x and holds 1: a change of the margin is neither found nor ruled out; it had 8 paired rounds/,
    );
    expect(high.reason).not.toMatch(/wider than/);
    // Narrow enough to stop on, off centre: more budget would stop at the same place.
    const stopped = judgeRatio(0.975, [0.952, 0.9985], 24, 0.05, 12);
    expect(stopped.verdict).toBe('inconclusive');
    expect(stopped.pairsNeeded).toBeUndefined();
    expect(stopped.reason).toMatch(/as narrow as the rule stops at, just off centre: .*a higher --runs/);
    expect(stopped.reason).not.toMatch(/--budget/);
  });
});

describe('judgeAb and compareAb', () => {
  const runs = (...rps: number[]) => rps.map((r, i) => makeRun({ requestsPerSec: r, round: i + 1 }));
  const cell = (label: string, rps: number[], mode: 'sync' | 'worker' = 'sync') => ({
    ...makeCell({ runtime: 'node', scenario: 'checksum', mode, runtimeLabel: label }),
    runDetails: runs(...rps),
  });

  // Two rounds on each pair of server processes, as bench:ab runs them.
  const pairs = (rps: number[], others: (number | undefined)[] = []) =>
    rps.map((r, i) => makeRun({ requestsPerSec: r, round: i + 1, serverProcess: Math.floor(i / 2) + 1, othersCpuCores: others[i] }));
  const paired = (label: string, rps: number[], others?: (number | undefined)[], mode: 'sync' | 'worker' = 'sync') => ({
    ...cell(label, rps, mode),
    runDetails: pairs(rps, others),
  });

  it('pairs runs by round: B 5 % slower in every round regresses', () => {
    const j = judgeAb(paired('node-A', [1000, 900, 1100, 1000, 1050, 950]), paired('node-B', [950, 855, 1045, 950, 997.5, 902.5]), 0.05);
    expect(j).toMatchObject({ verdict: 'regressed', ratio: 0.95, pairs: 6, processPairs: 3 });
  });

  it('makes no claim from rounds on one process pair (--quick), keeping the estimate for the reader', () => {
    // The same rounds as above, all on one pair: they say B's process ran 5 % slower than A's, not that the code did.
    const j = judgeAb(cell('node-A', [1000, 900, 1100, 1000]), cell('node-B', [950, 855, 1045, 950]), 0.05);
    expect(j).toMatchObject({ verdict: 'inconclusive', ratio: 0.95, pairs: 4 });
    expect(j.ci95?.[1]).toBeLessThan(1);
    // It could flag nothing, however narrow its interval over rounds.
    expect(j.detectable).toBeNull();
    expect(j.reason).toMatch(
      /^its 4 paired rounds ran on one pair of server processes: B -5.0 % \(0.9\d\d-0.9\d\dx over rounds\) speaks for those two processes, not for the code, .*run without --quick/,
    );
    expect(verdictLine({ ...j, runtime: 'node', scenario: 'hash', mode: 'sync' })).toMatch(
      /: all kept rounds on one pair of server processes: never judged; run without --quick$/,
    );
  });

  it('keeps a process pair one unit when one side restarted within it', () => {
    const rps = [1000, 900, 1100, 1000, 1050, 950, 1000, 1020];
    const b = rps.map((r, i) => r * (i % 2 === 0 ? 0.95 : 0.96));
    const a = paired('node-A', rps);
    const onTime = judgeAb(a, paired('node-B', b), 0.05);
    // B's server restarted before round 2 (its backlog would not drain): B's processes are
    // numbered 1, 2, 3, 3, 4, 4, 5, 5 while A's stay 1, 1, 2, 2, ...
    const processes = [1, 2, 3, 3, 4, 4, 5, 5];
    const restarted = { ...paired('node-B', b), runDetails: pairs(b).map((r, i) => ({ ...r, serverProcess: processes[i] })) };
    const j = judgeAb(a, restarted, 0.05);
    expect(j.processPairs).toBe(4);
    expect(j.ci95).toEqual(onTime.ci95);
  });

  it('fails the gate when B failed where A only went invalid, and says both', () => {
    const invalid = { ...cell('node-A', [1000]), status: 'invalid' as const, reason: '1 non-2xx answer' };
    const failed = { ...cell('node-B', [1000]), status: 'failed' as const, reason: 'server lost' };
    expect(judgeAb(invalid, failed, 0.05)).toMatchObject({ verdict: 'inconclusive', bFailed: true });
    expect(judgeAb(invalid, failed, 0.05).reason).toMatch(
      /A's cell is invalid \(1 non-2xx answer\), and B's cell is failed \(server lost\)/,
    );
    // Both failed: nothing to tell B's from A's.
    const aFailed = { ...invalid, status: 'failed' as const };
    expect(judgeAb(aFailed, failed, 0.05).bFailed).toBeUndefined();
    expect(judgeAb(invalid, { ...failed, status: 'invalid' as const }, 0.05).bFailed).toBeUndefined();
  });

  it('is inconclusive, saying why, for a failed cell or too few paired rounds', () => {
    const failed = { ...cell('node-B', [1000]), status: 'failed' as const, reason: 'server lost' };
    expect(judgeAb(cell('node-A', [1000]), failed, 0.05)).toMatchObject({ verdict: 'inconclusive', detectable: null });
    expect(judgeAb(cell('node-A', [1000]), failed, 0.05).reason).toMatch(/B's cell is failed \(server lost\)/);
    expect(judgeAb(cell('node-A', [1, 2]), cell('node-B', [1, 2]), 0.05).reason).toMatch(/2 paired round\(s\), 3 needed/);
    expect(judgeAb(undefined, cell('node-B', [1, 2]), 0.05).reason).toBe('A has no such cell');
  });

  const plan: AbPlan = {
    a: { variant: 'env:K=1', kind: 'env', lanes: ['node-A'], env: { K: '1' } },
    b: { variant: 'env:K=2', kind: 'env', lanes: ['node-B'], env: { K: '2' } },
    order: 'ABBA',
    margin: 0.05,
  };

  it('matches each A cell with B of the same mode and counts the verdicts', () => {
    const results = [
      paired('node-A', [1000, 1000, 1000, 1000, 1000, 1000]),
      paired('node-B', [940, 950, 945, 950, 948, 944]),
      paired('node-A', [500, 510, 490, 500, 505, 495], undefined, 'worker'),
      paired('node-B', [501, 509, 492, 499, 504, 496], undefined, 'worker'),
    ];
    const ab = compareAb(results, plan);
    expect(ab.cells.map((c) => [c.mode, c.verdict])).toEqual([
      ['sync', 'regressed'],
      ['worker', 'unchanged'],
    ]);
    expect(ab.counts).toEqual({ regressed: 1, improved: 0, unchanged: 1, inconclusive: 0 });
    expect(abHeadline(ab)).toBe('✗ 1 regressed, 0 improved, 1 no change, 0 could not tell');
    expect(verdictLine(ab.cells[0]!)).toMatch(/^regressed, B -5\.\d % \(-\d\.\d % to -\d\.\d %\), could see \d+\.\d %$/);
    expect(verdictLine(ab.cells[1]!)).toMatch(/^no change within ±5\.0 %, B [+-]\d\.\d % \(.*\), could see 3\.0 %$/);
    // Read with the cells' flags: a client-bound side's requests/s is a floor of its server's.
    // B below a client-bound A is still slower; B client-bound below A, or any side bound on an
    // "unchanged", compares the client with itself.
    const bound = (c: (typeof results)[number]) => ({ ...c, flags: ['client-bound' as const] });
    const [sa, sb, wa, wb] = results as [
      (typeof results)[number],
      (typeof results)[number],
      (typeof results)[number],
      (typeof results)[number],
    ];
    const aBound = compareAb([bound(sa), sb, wa, bound(wb)], plan).cells;
    expect(aBound.map((c) => c.verdict)).toEqual(['regressed', 'inconclusive']);
    expect(aBound[0]?.flags).toEqual({ a: ['client-bound'], b: [] });
    expect(verdictLine(aBound[0]!)).toMatch(/could see \d+\.\d %; ⚠ client-bound \(A\)$/);
    expect(verdictLine(aBound[1]!)).toMatch(
      /^could not tell, B .*: the load generator may have set the pace \(client-bound\); servers on another machine; ⚠ client-bound \(B\)$/,
    );
    expect(aBound[1]?.reason).toMatch(
      /^B [+-]\d\.\d %, but the load generator used a core's worth of CPU on B's side \(client-bound\).*may be a floor.*whether B is alike/,
    );
    const bBound = compareAb([sa, bound(sb)], plan).cells[0];
    expect(bBound).toMatchObject({ verdict: 'inconclusive', flags: { a: [], b: ['client-bound'] } });
    expect(bBound?.reason).toMatch(/whether B is slower/);
    // B faster than A: it stands where B's side hit the client's ceiling, not where A's did.
    const slowA = paired('node-A', [940, 950, 945, 950, 948, 944]);
    const fastB = paired('node-B', [1000, 1000, 1000, 1000, 1000, 1000]);
    expect(compareAb([slowA, bound(fastB)], plan).cells[0]?.verdict).toBe('improved');
    expect(compareAb([bound(slowA), fastB], plan).cells[0]?.reason).toMatch(/whether B is faster/);
    // Both sides bound: no count of pairs could flag either way, so an interval too wide is told
    // the client, not a number of pairs the budget advice would count.
    const wideA = paired('node-A', [1000, 1100, 900, 1050, 950, 1000]);
    const wideB = paired('node-B', [1000, 900, 1100, 950, 1050, 980]);
    const wide = compareAb([wideA, wideB], plan).cells[0];
    expect(wide).toMatchObject({ verdict: 'inconclusive', why: 'wide' });
    const bothBound = compareAb([bound(wideA), bound(wideB)], plan).cells[0];
    expect(bothBound).toMatchObject({ verdict: 'inconclusive', why: 'client-bound', flags: { a: ['client-bound'], b: ['client-bound'] } });
    expect(bothBound?.pairsNeeded).toBeUndefined();
    expect(bothBound?.reason).toMatch(/on both sides \(client-bound\).*whether B is slower or faster/);
    expect(ab.cells[1]?.flags).toBeUndefined();
    const report = { results, ab } as unknown as Report;
    expect(abExitCode(report)).toBe(1);
    expect(abExitCode({ ...report, ab: { ...ab, counts: { ...ab.counts, regressed: 0 } } })).toBe(0);
    // --strict: a cell that could neither find nor rule out a change of the margin fails too.
    const open = { ...report, ab: { ...ab, counts: { ...ab.counts, regressed: 0, inconclusive: 1 } } };
    expect(abExitCode(open)).toBe(0);
    expect(abExitCode(open, true)).toBe(1);
    // Read at a glance: the console gives each cell one short line, the report its table first
    // and each inconclusive cell's reason in full under it.
    const bounded = compareAb([bound(sa), sb, wa, bound(wb)], plan);
    const full = { results, ab: bounded, parameters: { ab: plan, roundsPerProcess: 2 }, runtimes: [] } as unknown as Report;
    expect(abConsole(full).split('\n').slice(1, 3)).toEqual(bounded.cells.map((c) => `  node ${c.scenario}/${c.mode}: ${verdictLine(c)}`));
    const md = abMarkdown(full) ?? '';
    const [table, inFull, how] = ['| runtime', 'Why each inconclusive cell is, in full:', 'A and B ran as lanes'].map((s) => md.indexOf(s));
    expect(0 < (table ?? -1) && (table ?? 0) < (inFull ?? 0) && (inFull ?? 0) < (how ?? 0)).toBe(true);
    expect(md).toContain(`- node ${bounded.cells[1]?.scenario}/worker: ${bounded.cells[1]?.reason}`);
  });

  it('widens a cell measured on two process pairs by the between-process-pair variance pooled over its scenario and mode', () => {
    // Rounds 1-2 on one pair of servers, 3-4 on the next: B's first server ran 8 % slow in both its rounds.
    const split = (label: string, rps: number[]) => ({
      ...cell(label, rps),
      runDetails: rps.map((r, i) => makeRun({ requestsPerSec: r, round: i + 1, serverProcess: i < 2 ? 1 : 2 })),
    });
    const one = judgeAb(split('node-A', [1000, 1000, 1000, 1000]), split('node-B', [920, 921, 1000, 999]), 0.05);
    const two = compareAb(
      [
        split('node-A', [1000, 1000, 1000, 1000]),
        split('node-B', [920, 921, 1000, 999]),
        { ...split('node-A', [500, 500, 500, 500]), mode: 'worker' as const },
        { ...split('node-B', [460, 461, 500, 499]), mode: 'worker' as const },
      ],
      plan,
    ).cells[0];
    const width = (ci: [number, number] | undefined) => (ci === undefined ? 0 : ci[1] - ci[0]);
    expect(width(two?.ci95)).toBeGreaterThan(width(one.ci95));
    expect(two?.verdict).toBe('inconclusive');
    // Pooled within a scenario and mode only: a file cell whose B processes ran 30 % apart
    // leaves the hash cell's interval as it was.
    const hash = [split('node-A', [1000, 1000, 1000, 1000]), split('node-B', [920, 921, 1000, 999])];
    const alone = compareAb(hash, plan).cells[0];
    const file = [
      { ...split('node-A', [800, 800, 800, 800]), scenario: 'file' as const },
      { ...split('node-B', [560, 561, 800, 799]), scenario: 'file' as const },
    ];
    const beside = compareAb([...hash, ...file], plan).cells;
    expect(beside[0]?.ci95).toEqual(alone?.ci95);
    expect(width(beside[1]?.ci95)).toBeGreaterThan(width(alone?.ci95));
    // And within a query: another size of the same scenario is other work.
    const sized = file.map((c) => ({ ...c, scenario: hash[0]!.scenario, query: 'size=1mb' }));
    const bySize = compareAb([...hash, ...sized], plan).cells;
    expect(bySize[0]?.ci95).toEqual(alone?.ci95);
  });

  it('with 3 process pairs or more, the interval is over the process pairs: one that ran apart moves one unit, not every round', () => {
    const a = paired('node-A', [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000]);
    // B 5 % slower throughout; its third pair of processes 10 % slower still, in both its rounds.
    const b = paired('node-B', [950, 951, 949, 950, 855, 856, 950, 949]);
    const j = judgeAb(a, b, 0.05);
    expect(j).toMatchObject({ pairs: 8, processPairs: 4 });
    // Over rounds the interval would treat the slow pair's two rounds as two independent findings.
    const rounds = judgeAb(
      { ...a, runDetails: runs(1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000) },
      { ...b, runDetails: runs(950, 951, 949, 950, 855, 856, 950, 949) },
      0.05,
    );
    const width = (ci: [number, number] | undefined) => (ci === undefined ? 0 : Math.log(ci[1]) - Math.log(ci[0]));
    expect(width(j.ci95)).toBeGreaterThan(width(rounds.ci95));
    expect(j.reason ?? '').not.toMatch(/paired round\(s\)/);
  });

  it('leaves out a round in which another process used the CPU beside either side, and says how many', () => {
    const a = paired('node-A', [1000, 1000, 1000, 1000, 1000, 1000]);
    const b = paired('node-B', [1000, 700, 1001, 999, 1000, 1000], [0, 0.9, 0, 0, 0, 0]);
    const j = judgeAb(a, b, 0.05);
    expect(j).toMatchObject({ pairs: 5, sharedRounds: 1, processPairs: 3, verdict: 'unchanged' });
  });

  it('asks for another process pair while the interval over process pairs is wider than a change of the margin needs', () => {
    const a = pairs([1000, 1000, 1000, 1000, 1000, 1000]);
    expect(abNeed(a, pairs([1000, 1000, 1000, 1000]), 0.05, 20)).toBe(1);
    expect(abNeed(a, pairs([1000, 1001, 999, 1000, 1001, 1000]), 0.05, 20)).toBe(0);
    expect(abNeed(a, pairs([1000, 1010, 900, 910, 1080, 1090]), 0.05, 20)).toBeGreaterThanOrEqual(1);
  });

  it("stops one runtime's lanes of a cell once their interval needs no more process pairs, and lets another runtime's go on", () => {
    const need = abProcessPairNeed(0.05, 20);
    const lane = (runtime: 'node' | 'bun', side: 'A' | 'B', rps: number[]) => ({
      label: `${runtime}-${side}`,
      role: side === 'A' ? ('a' as const) : ('b' as const),
      runtime,
      scenario: 'checksum' as const,
      runs: pairs(rps),
    });
    const flat = [1000, 1000, 1000, 1000, 1000, 1000];
    const tight = [950, 951, 949, 950, 951, 950];
    const wide = [1000, 1010, 900, 910, 1080, 1090];
    const label = (lanes: { label: string }[]) => lanes.map((l) => l.label);
    const both = processPairsStillNeeded(
      [lane('node', 'A', flat), lane('node', 'B', tight), lane('bun', 'A', flat), lane('bun', 'B', wide)],
      (l) => l,
      need,
    );
    expect(label(both.enough)).toEqual(['node-A', 'node-B']);
    expect(both.need).toBeGreaterThanOrEqual(1);
    const done = processPairsStillNeeded([lane('bun', 'A', flat), lane('bun', 'B', tight)], (l) => l, need);
    expect({ enough: label(done.enough), need: done.need }).toEqual({ enough: ['bun-A', 'bun-B'], need: 0 });
    // B's cell failed on bun: A has nothing left to pair with.
    expect(processPairsStillNeeded([lane('bun', 'A', flat)], (l) => l, need).need).toBe(0);
    // The load generator bound on both sides: no pair could flag it, so it asks for none; bound
    // on one side, B below a bound A is still a regression to look for.
    const bound = (l: ReturnType<typeof lane>, cpuPercent = 99) => ({ ...l, runs: l.runs.map((r) => ({ ...r, client: { cpuPercent } })) });
    expect(processPairsStillNeeded([bound(lane('bun', 'A', flat)), bound(lane('bun', 'B', wide))], (l) => l, need).need).toBe(0);
    expect(processPairsStillNeeded([bound(lane('bun', 'A', flat)), lane('bun', 'B', wide)], (l) => l, need).need).toBeGreaterThanOrEqual(1);
  });

  describe("the machine's speed, timed beside each run", () => {
    // B/A follows the machine's speed during B's run over A's: the host, not the change.
    const speeds = [1.2, 1.15, 0.85, 0.9, 1.1, 1.05, 0.9, 0.85, 1.15, 1.2, 0.8, 0.85];
    const timed = (label: string, rps: number[], speed: (i: number) => number | undefined) => ({
      ...cell(label, rps),
      runDetails: rps.map((r, i) => {
        const s = speed(i);
        return makeRun({
          requestsPerSec: r,
          round: i + 1,
          serverProcess: Math.floor(i / 2) + 1,
          ...(s === undefined ? {} : { machine: { coresWorth: 2 * s, min: 1, max: 3, ticks: 4 } }),
        });
      }),
    });
    const flat = speeds.map(() => 1000);

    it('adjusts the ratio to an equally fast machine for A and B, keeping the unadjusted figures', () => {
      // B 6 % slower, and moved by the machine's speed as well.
      const b = speeds.map((x) => 940 * x);
      const j = judgeAb(
        timed('node-A', flat, () => 1),
        timed('node-B', b, (i) => speeds[i]),
        0.05,
      );
      expect(j).toMatchObject({ verdict: 'regressed', ratio: 0.94, processPairs: 6 });
      expect(j.ci95?.[1]).toBeLessThan(0.941);
      expect(j.speedAdjusted?.correlation).toBeCloseTo(1, 3);
      expect(j.speedAdjusted?.slope).toBeCloseTo(1, 3);
      // The plain interval over the pairs is wide: the speed's scatter is in it.
      const [lo, hi] = j.speedAdjusted?.unadjusted.ci95 ?? [1, 1];
      expect(hi - lo).toBeGreaterThan(0.03);
      // Without the sampler's figures (a remote server host, an older report) the plain interval is the verdict's.
      const bare = judgeAb(paired('node-A', flat), paired('node-B', b), 0.05);
      expect(bare.speedAdjusted).toBeUndefined();
      expect(bare.ci95).toEqual(j.speedAdjusted?.unadjusted.ci95);
    });

    it('keeps the plain interval where the speed read during B differs from during A beyond chance: B may have moved it', () => {
      // B 6 % slower and its sampler reading 8-12 % slower in every pair: a B that keeps the CPUs busier.
      const b = speeds.map((x) => 940 * x);
      const j = judgeAb(
        timed('node-A', flat, () => 1),
        timed('node-B', b, (i) => [0.9, 0.88, 0.92][i % 3]),
        0.05,
      );
      expect(j.speedAdjusted).toBeUndefined();
      expect(j.verdict).toBe('inconclusive');
      expect(j.reason).toMatch(/not adjusted for the machine's speed: it read -1\d\.\d % to -\d\.\d % during B's runs against A's/);
    });

    it('calls a cell unchanged only where its plain interval, too, lies within the margin', () => {
      // Within the margin once adjusted; the plain interval, with the speed's scatter in it, is wide.
      const b = speeds.map((x) => 990 * x);
      const j = judgeAb(
        timed('node-A', flat, () => 1),
        timed('node-B', b, (i) => speeds[i]),
        0.05,
      );
      expect(j.speedAdjusted).toBeDefined();
      expect(j.ci95?.[0]).toBeGreaterThan(1 / 1.05);
      expect(j.verdict).toBe('inconclusive');
      expect(j.reason).toMatch(
        /its interval adjusted for the machine's speed \(0.9\d\d-0.9\d\dx\) lies within ±5.0 %, its plain interval \([\d.]+-[\d.]+x\) does not/,
      );
    });

    it('says, of an inconclusive adjusted cell, that what is left is its own scatter', () => {
      const own = [1000, 1010, 1150, 1140, 880, 890, 1100, 1090, 900, 910, 1050, 1060];
      const j = judgeAb(
        timed('node-A', flat, () => 1),
        timed('node-B', own, (i) => [1, 1.02, 0.98, 1][i % 4]),
        0.05,
      );
      expect(j.verdict).toBe('inconclusive');
      expect(j.reason).toMatch(
        /; the interval is adjusted for the machine's speed timed beside each run \(B\/A moved with it at correlation -?\d\.\d\d; unadjusted \d\.\d{3}-\d\.\d{3}x\), so what is left is the cell's own scatter: at this spread about \d+ pairs of server processes would let it see ±5.0 %/,
      );
    });

    it('says how much the speed moved, and whether B/A moved with it, when a round went untimed and the cell could not be adjusted', () => {
      const j = judgeAb(
        timed('node-A', flat, (i) => (i === 3 ? undefined : 1)),
        timed(
          'node-B',
          speeds.map((x) => 1000 * x),
          (i) => speeds[i],
        ),
        0.05,
      );
      expect(j.speedAdjusted).toBeUndefined();
      expect(j.verdict).toBe('inconclusive');
      expect(j.reason).toMatch(
        /; the machine's speed, timed beside each run, differed by ±\d+\.\d % between A's run and B's \(standard deviation over 11 rounds\), and B\/A moved with it \(correlation 1\.00\): at this spread about \d+ pairs/,
      );
      const bare = judgeAb(
        paired('node-A', flat),
        paired(
          'node-B',
          speeds.map((x) => 1000 * x),
        ),
        0.05,
      );
      expect(bare.reason).not.toMatch(/machine's speed/);
    });
  });

  it('holds hello to twice the margin', () => {
    // B 5 % slower: past 0.6 of a 5 % margin, within 0.6 of hello's 10 %
    const a = [1000, 1000, 1000, 1000, 1000, 1000];
    const b = [950, 948, 952, 950, 951, 949];
    const hello = (label: string, rps: number[]) => ({ ...paired(label, rps), scenario: 'hello' });
    expect(compareAb([paired('node-A', a), paired('node-B', b)], plan).cells[0]).toMatchObject({ margin: 0.05, verdict: 'regressed' });
    expect(compareAb([hello('node-A', a), hello('node-B', b)], plan).cells[0]).toMatchObject({ margin: 0.1, verdict: 'unchanged' });
  });

  it('fails the gate when B breaks a cell A served, and not when A broke it', () => {
    const failed = { ...cell('node-B', [0, 0, 0, 0]), status: 'failed' as const, reason: 'server exited (code 1)' };
    const ab = compareAb([cell('node-A', [1000, 1000, 1000, 1000]), failed], plan);
    expect(ab.cells[0]).toMatchObject({ verdict: 'inconclusive', bFailed: true });
    expect(ab.cells[0]!.reason).toMatch(/^B's cell is failed \(server exited \(code 1\)\)/);
    expect(abHeadline(ab)).toBe('✗ 0 regressed, 0 improved, 0 no change, 1 could not tell (B failed in 1 where A measured)');
    expect(abExitCode({ results: [], ab } as unknown as Report)).toBe(1);
    // B's cell missing altogether counts the same
    expect(compareAb([cell('node-A', [1000, 1000, 1000, 1000])], plan).cells[0]).toMatchObject({ bFailed: true });
    // A failed: the base is broken, not the change; inconclusive, and no exit 1 for it
    const aFailed = { ...cell('node-A', [0, 0, 0, 0]), status: 'failed' as const };
    const both = compareAb([aFailed, cell('node-B', [1000, 1000, 1000, 1000])], plan);
    expect(both.cells[0]?.bFailed).toBeUndefined();
    expect(abExitCode({ results: [cell('node-B', [1000])], ab: both } as unknown as Report)).toBe(0);
  });
});

describe('processPairsAdvice', () => {
  const cell = (runtime: string, verdict: AbCell['verdict'], processPairs: number, pairsNeeded?: number): AbCell => ({
    runtime,
    scenario: 'file-ab',
    mode: 'sync',
    verdict,
    pairs: processPairs * 2,
    processPairs,
    margin: 0.05,
    detectable: 0.05,
    ...(pairsNeeded === undefined ? {} : { pairsNeeded }),
  });
  const report = (cells: AbCell[], maxRuns = 100) => ({
    ab: { cells, counts: { regressed: 0, improved: 0, unchanged: 0, inconclusive: cells.length } },
    timing: { wallSec: 316, phasesSec: {} },
    parameters: { maxRuns, roundsPerProcess: 2 } as Report['parameters'],
  });

  it("names the cells short of process pairs and the budget that gives them what they need at the run's pace", () => {
    const advice = processPairsAdvice(
      report([cell('node', 'inconclusive', 11, 43), cell('bun', 'regressed', 11), cell('deno', 'inconclusive', 11, 31)]),
    );
    expect(advice).toMatch(
      /^Inconclusive for want of pairs of server processes: .* they showed, node file-ab\/sync would need about 43, deno file-ab\/sync about 31 \(this run gave a cell at most 11, in 316 s\)/,
    );
    // 316 s for 11 pairs, 43 pairs: 1,235 s, to the next whole minute.
    expect(advice).toMatch(/At that pace `--budget 1260` gives each of them what it needs; fewer cells/);
    expect(advice).not.toMatch(/--max-runs/);
    // Past the run's cap of pairs, the cap must be raised too.
    expect(processPairsAdvice(report([cell('node', 'inconclusive', 11, 43)], 60))).toMatch(/`--budget 1260` with `--max-runs 86`/);
  });

  it('paces a cell that had fewer process pairs than others at its own pace, never below the run it fell short in', () => {
    // 316 s gave bun 20 pairs and node, paced out at its minimum, 6: node's 10 need 316 * 10 / 6 s.
    const advice = processPairsAdvice(report([cell('node', 'inconclusive', 6, 10), cell('bun', 'unchanged', 20)]));
    expect(advice).toMatch(/`--budget 540` gives it what it needs/);
  });

  it('says nothing when no cell is short of process pairs', () => {
    expect(processPairsAdvice(report([cell('node', 'unchanged', 11), cell('bun', 'regressed', 11)]))).toBeUndefined();
  });
});

describe('abSchedule', () => {
  it('runs bench:ab on a new process pair every two rounds, six at least, more within the budget', () => {
    const plan = abSchedule(parsePlan([]), []);
    expect(plan).toMatchObject({ roundsPerProcess: AB_PLAN.roundsPerProcess, runs: 12, maxRuns: 100, budgetSec: 1800 });
    expect(plan.serverProcesses).toBeUndefined();
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((round) => restartsBefore(round, plan))).toEqual([
      false,
      false,
      true,
      false,
      true,
      false,
      true,
      false,
      true,
    ]);
  });

  it('keeps what the user gave, in whole process pairs, and leaves --quick as bench has it', () => {
    const given = parsePlan(['--runs', '5', '--max-runs', '9', '--budget', '60']);
    const plan = abSchedule(given, ['--runs', '5', '--max-runs', '9', '--budget', '60']);
    expect(plan).toMatchObject({ runs: 6, maxRuns: 10, budgetSec: 60 });
    // The plan given is left as parsed: the shape is a new plan.
    expect(given).toMatchObject({ runs: 5, maxRuns: 9 });
    expect(given.roundsPerProcess).toBeUndefined();
    const quick = abSchedule(parsePlan(['--quick']), ['--quick']);
    expect(quick.roundsPerProcess).toBeUndefined();
    expect(() => abSchedule(parsePlan([]), ['--server-processes', '3'])).toThrow(/every 2 rounds/);
  });
});

describe('a ref that predates a server flag', () => {
  it("asks the ref's own parser which of today's flags it does not know", async () => {
    const root = mkdtempSync(join(tmpdir(), 'ab-ref-'));
    try {
      mkdirSync(join(root, 'packages/app/src'), { recursive: true });
      // A parser of an older build: it knows --port, --raw and --hash-cost (and checks its value), nothing else.
      writeFileSync(
        join(root, 'packages/app/src/server-args.ts'),
        `import { parseArgs } from 'node:util';\nexport function parseServerArgs(argv: string[]) {\n  const { values } = parseArgs({ args: argv, strict: true, options: { port: { type: 'string' }, raw: { type: 'boolean' }, 'hash-cost': { type: 'string' } } });\n  if (values['hash-cost'] !== undefined && Number(values['hash-cost']) < 4) throw new Error('--hash-cost must be from 4');\n  return values;\n}\n`,
      );
      const unknown = await unknownServerFlags({ name: 'old', commit: 'c0ffee', root });
      expect(unknown).toContain('scenarios');
      expect(unknown).toContain('scenario-file');
      expect(unknown).not.toContain('port');
      expect(unknown).not.toContain('raw');
      // refused for its value, not as unknown: a flag the ref knows
      expect(unknown).not.toContain('hash-cost');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('leaves those flags (and a string flag’s value) off the command line, keeping the rest', () => {
    expect(
      withoutFlags(['--port', '0', '--scenarios', 'hash,fib', '--raw', '--scenarios=none', '--hash-cost', '10'], ['scenarios', 'raw']),
    ).toEqual(['--port', '0', '--hash-cost', '10']);
  });
});
