import { describe, expect, it } from 'vitest';
import { FlagError } from '../src/cli/flags.ts';
import { DEFAULT_COUNT } from '../src/measure/instructions.ts';
import { cellFigure, instructionThreshold, instructionVerdict } from '../src/measure/instruction-verdict.ts';
import { takeMeasureFlags } from '../src/measure/measure-flag.ts';
import { determinism, determinismWords, dumpTotal, underCallgrind } from '../src/measure/valgrind.ts';
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
    expect(determinismWords(determinism('bun'))).toBe('BUN_JSC_useConcurrentJIT=false BUN_JSC_useConcurrentGC=false ASLR off (setarch -R)');
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
