import { describe, expect, it } from 'vitest';
import { FlagError } from '../src/cli/flags.ts';
import { DEFAULT_COUNT } from '../src/measure/instructions.ts';
import { BLIND_SPOTS, type InstructionReport, renderInstructions } from '../src/measure/instruction-report.ts';
import { cellFigure, instructionThreshold, instructionVerdict } from '../src/measure/instruction-verdict.ts';
import { takeMeasureFlags } from '../src/measure/measure-flag.ts';
import { determinism, determinismWords, dumpEvents, dumpTotal, estimatedCycles, underCallgrind } from '../src/measure/valgrind.ts';
import type { RuntimeSpec } from '../src/servers/runtimes.ts';

describe('takeMeasureFlags', () => {
  it('wall clock by default, the rest of the line untouched', () => {
    expect(takeMeasureFlags(['--runtimes', 'node', '--quick'])).toEqual({
      measure: 'wall',
      count: DEFAULT_COUNT,
      rest: ['--runtimes', 'node', '--quick'],
    });
  });
  it('takes --measure and the count flags in both spellings', () => {
    const got = takeMeasureFlags(['--measure=instructions', '--count-requests', '50', '--runs', '3', '--count-concurrency=2']);
    expect(got.measure).toBe('instructions');
    expect(got.count).toEqual({ ...DEFAULT_COUNT, requests: 50, concurrency: 2 });
    expect(got.rest).toEqual(['--runs', '3']);
  });
  it('refuses an unknown measure, a count flag without instructions, and a bad number', () => {
    expect(() => takeMeasureFlags(['--measure', 'cycles'])).toThrow(FlagError);
    expect(() => takeMeasureFlags(['--count-requests', '50'])).toThrow(/needs --measure instructions/);
    expect(() => takeMeasureFlags(['--measure', 'instructions', '--count-rounds', '0'])).toThrow(/from 1 to 50/);
    expect(() => takeMeasureFlags(['--measure'])).toThrow(/needs a value/);
  });
});

describe('dumpTotal', () => {
  const dump = (events: string, totals: string) => `version: 1\ncmd: node\nevents: ${events}\nsummary: 0\ntotals: ${totals}\n`;
  it('reads the Ir total of a dump', () => {
    expect(dumpTotal(dump('Ir', '374339455'))).toBe(374339455);
    expect(dumpTotal(dump('Ir Dr Dw', '10 20 30'))).toBe(10);
    expect(dumpTotal(dump('Dr Ir', '20 10'))).toBe(10);
  });
  it('refuses a dump without instructions', () => {
    expect(() => dumpTotal(dump('Dr', '20'))).toThrow(/Ir/);
    expect(() => dumpTotal('events: Ir\n')).toThrow(/Ir/);
  });
});

describe('underCallgrind', () => {
  const spec = (name: 'node' | 'deno'): RuntimeSpec => ({
    name,
    binary: `/bin/${name}`,
    args: (s) => (name === 'deno' ? ['run', '--no-prompt', 'server.ts', ...s] : ['server.ts', ...s]),
    versionArgs: [],
    parseVersion: (o) => o,
  });
  it('puts valgrind (behind setarch) in the binary’s place, collection off, the runtime’s flags where it reads them', () => {
    const node = underCallgrind(spec('node'), determinism('node'), '/out/cg');
    expect(node.binary).toBe('setarch');
    const args = node.args(['--port', '0']);
    expect(args).toContain('--instr-atstart=no');
    expect(args).toContain('--callgrind-out-file=/out/cg');
    expect(args.slice(args.indexOf('/bin/node'))).toEqual(['/bin/node', ...determinism('node').flags, 'server.ts', '--port', '0']);
    const deno = underCallgrind(spec('deno'), determinism('deno'), '/out/cg').args([]);
    expect(deno.slice(deno.indexOf('/bin/deno'))).toEqual(['/bin/deno', 'run', ...determinism('deno').flags, '--no-prompt', 'server.ts']);
  });
  it('names every setting in words', () => {
    expect(determinismWords(determinism('bun'))).toBe(
      'BUN_JSC_useConcurrentJIT=false BUN_JSC_useConcurrentGC=false BUN_JSC_useJITDump=1 ASLR off (setarch -R)',
    );
  });
});

describe('instructionVerdict', () => {
  const t = instructionThreshold('node');
  it('says regressed, improved or unchanged on B over A beyond the runtime’s A/A rule', () => {
    expect(instructionVerdict('node', [100, 100], [100 * (1 + 2 * t), 100 * (1 + 2 * t)]).verdict).toBe('regressed');
    expect(instructionVerdict('node', [100, 100], [100 * (1 - 2 * t), 100 * (1 - 2 * t)]).verdict).toBe('improved');
    expect(instructionVerdict('node', [100, 100.1], [100.05, 100.05]).verdict).toBe('unchanged');
    expect(instructionVerdict('node', [100], []).verdict).toBe('inconclusive');
  });
  it('judges the rounds after the first, which can still hold a long timer’s first run', () => {
    expect(cellFigure([110, 100, 102])).toBe(101);
    expect(cellFigure([100])).toBe(100);
    expect(instructionVerdict('node', [110, 100], [100, 100]).verdict).toBe('unchanged');
  });
  it('carries the smallest change it could see', () => {
    expect(instructionVerdict('node', [100], [100]).threshold).toBe(t);
    expect(instructionThreshold('bun')).toBeGreaterThanOrEqual(t);
  });
});

describe('renderInstructions', () => {
  it('prints each lane’s settings, each cell’s rounds, each pair’s verdict with what it could see, and what a count cannot see', () => {
    const cell = (lane: string, rounds: number[]) => ({
      lane,
      runtime: 'node' as const,
      scenario: 'fib22',
      mode: 'sync',
      status: 'ok' as const,
      rounds,
      perRequest: cellFigure(rounds),
      files: [],
      seconds: 30,
    });
    const lane = (name: string) => ({
      lane: name,
      runtime: 'node' as const,
      version: '26.12.1',
      status: 'ok' as const,
      settings: '--single-threaded',
      startSeconds: 20,
    });
    const text = renderInstructions({
      kind: 'instructions',
      schemaVersion: 1,
      createdAt: '2026-11-29T08:00:00.000Z',
      status: 'complete',
      environment: { cpu: { model: 'AMD EPYC', count: 2 } } as InstructionReport['environment'],
      valgrind: '3.19.0',
      count: { warmupRequests: 500, requests: 100, rounds: 2, concurrency: 1 },
      blindSpots: BLIND_SPOTS,
      lanes: [lane('node-A'), lane('node-B')],
      cells: [cell('node-A', [3_480_000, 3_150_000]), cell('node-B', [3_520_000, 3_190_000])],
      pairs: [
        {
          runtime: 'node',
          scenario: 'fib22',
          mode: 'sync',
          a: 'node-A',
          b: 'node-B',
          result: instructionVerdict('node', [3_480_000, 3_150_000], [3_520_000, 3_190_000]),
        },
      ],
      sides: { a: 'file:a.ts', b: 'file:b.ts' },
      seconds: 100,
    });
    expect(text).toMatch(/100 requests a round at 1 connection after 500 warm-up requests, 2 rounds a cell/);
    expect(text).toMatch(/\| node-A \| 26\.12\.1 \| --single-threaded \| 20 s \|/);
    expect(text).toMatch(/\| node-B \| fib22\/sync \| 3,190,000 \| 3,520,000 \/ 3,190,000 \| 30 s \|/);
    expect(text).toMatch(/\| node \| fib22\/sync \| 1\.0127 \| regressed \| ±\d\.\d\d % \| 1\.27 % more instructions a request \|/);
    expect(text).toContain('cannot see kernel time');
  });
});

describe('estimatedCycles', () => {
  it('weighs first-level misses 10 and last-level misses 100 on top of the instructions', () => {
    const text = 'events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\nsummary: 0\ntotals: 1000 300 200 5 4 3 2 1 0\n';
    expect(dumpEvents(text)).toMatchObject({ Ir: 1000, I1mr: 5, DLmw: 0 });
    expect(estimatedCycles(dumpEvents(text))).toBe(1000 + 10 * 12 + 100 * 3);
  });
  it('is undefined without the cache simulation', () => {
    expect(estimatedCycles(dumpEvents('events: Ir\ntotals: 1000\n'))).toBeUndefined();
  });
});
