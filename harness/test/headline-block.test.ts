import { describe, expect, it } from 'vitest';
import { headlineBlock } from '../src/docs/headline-block.ts';
import { answersReport } from './fixtures/answers-report.ts';

describe('headline block', () => {
  const text = headlineBlock(answersReport());
  const line = (scenario: string, over: string) => text.split('\n').find((l) => l.startsWith(`- **${scenario}**, ${over} over sync`)) ?? '';

  it('opens with the run it comes from: date, CPUs, runtimes, connections', () => {
    expect(text.split('\n')[0]).toMatch(
      /^From the run of 2026-11-25 12:00 UTC \(\d+ vCPUs, .*node 24\.21\.0, bun 1\.3\.3; 100 connections\)/,
    );
  });

  it('one line per off-loop mode against sync, never Hono against raw', () => {
    expect(text).not.toMatch(/\*\*hello\*\*/);
    expect(line('fib', 'worker')).not.toBe('');
    expect(line('fib', 'async')).not.toBe('');
    expect(line('kdf', 'async')).not.toBe('');
  });

  it('reads each ratio as its interval allows: a figure, no difference, or leaves out a cell that cannot carry one', () => {
    // A worker at about twice sync on both runtimes: figures with their intervals.
    expect(line('fib', 'worker')).toMatch(/node 2\.\d+x \(\d\.\d+–\d\.\d+x\), bun 1\.9\dx \(/);
    // async over a recursion: the same requests/s, told as no difference, not as a bare 1.00x.
    expect(line('fib', 'async')).toMatch(/node no difference \(1\.00x, 0\.\d+–1\.\d+x\)/);
    // bun's regex worker is invalid: no figure for it.
    expect(line('regex', 'worker')).not.toMatch(/bun/);
  });

  it('says what one sync request takes beside the ratio it is a multiple of', () => {
    expect(line('fib', 'worker')).toMatch(/one sync request takes 10\.0 ms/);
  });
});
