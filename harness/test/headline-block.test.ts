import { describe, expect, it } from 'vitest';
import { headlineBlock } from '../src/docs/headline-block.ts';
import { HEADLINE_BULLETS, HEADLINE_WORDS, wordCount } from '../src/report/headline-bullets.ts';
import { answersReport } from './fixtures/answers-report.ts';

describe('headline block', () => {
  const { body: text, files } = headlineBlock(answersReport(), 'docs/headline.svg', 'README.md');
  const bullets = text.split('\n').filter((l) => l.startsWith('- '));
  const line = (scenario: string, over: string) => bullets.find((l) => l.startsWith(`- **${scenario}**, ${over} vs sync`)) ?? '';

  it('says the run it comes from once, above the bullets: date, CPUs, runtimes, connections', () => {
    expect(text.split('\n')[0]).toMatch(/^The run of 2026-11-25 12:00 UTC on \d+ vCPUs .*node 24\.21\.0, bun 1\.3\.3; 100 connections\./);
    expect(bullets.every((b) => !/2026|vCPU/.test(b))).toBe(true);
  });

  it(`keeps to ${HEADLINE_BULLETS} bullets of at most ${HEADLINE_WORDS} words`, () => {
    expect(bullets.length).toBeGreaterThan(0);
    expect(bullets.length).toBeLessThanOrEqual(HEADLINE_BULLETS);
    for (const b of bullets) expect(wordCount(b.slice(2)), b).toBeLessThanOrEqual(HEADLINE_WORDS);
  });

  it('one line per off-loop mode against sync, never Hono against raw', () => {
    expect(text).not.toMatch(/\*\*hello\*\*/);
    expect(line('fib', 'worker')).not.toBe('');
    expect(line('fib', 'async')).not.toBe('');
  });

  it('words each verdict in the one vocabulary: faster with its figures, no gain, and no figure for a cell that cannot carry one', () => {
    expect(line('fib', 'worker')).toMatch(/faster on node 2\.\d+x \(\d\.\d+–\d\.\d+\), bun 1\.9\dx \(/);
    expect(line('fib', 'async')).toMatch(/no gain on node \(1\.00x, 0\.\d+–1\.\d+x\)/);
    expect(text).not.toMatch(/inconclusive|no difference/);
  });

  it('draws the picture it links, a row per scenario, mode and runtime', () => {
    expect(text).toContain('](docs/headline.svg)');
    const svg = files['docs/headline.svg'] ?? '';
    expect(svg).toMatch(/^<svg /);
    expect(svg).toContain('data-lane="fib worker: node"');
    expect(svg).toContain('data-lane="fib async: bun"');
  });

  it('writes "In words" from the same verdicts, so it says only what they hold', () => {
    const words = text.split('\n').find((l) => l.startsWith('In words:')) ?? '';
    // The worker was faster on both runtimes; async over a recursion gained nothing on either.
    expect(words).toMatch(/\(fib worker[^)]*\) was faster on every runtime/);
    expect(words).toMatch(/fib async[^.]*: no gain on any runtime/);
    expect(words).not.toMatch(/fib async[^.]*faster/);
  });

  it('says nothing of every runtime where one runtime could not tell', () => {
    const report = answersReport();
    // bun's worker ran beside other processes: its ratio cannot carry a verdict.
    const shared = {
      ...report,
      results: report.results.map((c) =>
        c.runtime === 'bun' && c.scenario === 'fib' && c.mode === 'worker' ? { ...c, flags: [...c.flags, 'shared-host' as const] } : c,
      ),
    };
    const { body } = headlineBlock(shared);
    const bullet = body.split('\n').find((l) => l.startsWith('- **fib**, worker vs sync')) ?? '';
    expect(bullet).toMatch(/could not tell on bun: the host was shared during worker/);
    const words = body.split('\n').find((l) => l.startsWith('In words:')) ?? '';
    expect(words).not.toMatch(/fib worker[^.]*faster on every runtime/);
    expect(words).toMatch(/fib worker the runtimes did not agree/);
  });
});
