/**
 * A mode that does other work per answer than sync (starve's async) is not compared on
 * requests/s: no throughput answer, no headline, and its sentence says what is compared instead.
 */
import { contractBreach } from '@bench/app';
import { describe, expect, it } from 'vitest';
import { answerQuestions } from '../src/report/answers.ts';
import { benchHeadlines } from '../src/report/bench-section.ts';
import { comparisonLines } from '../src/report/text/sentences.ts';
import type { Report } from '../src/model/report.ts';
import { answersReport } from './fixtures/answers-report.ts';

const differentWork = { modes: ['async' as const], why: 'async answers before its blockers finish', compares: "the request's p99" };

function withDifferentWork(): Report {
  const report = answersReport();
  return {
    ...report,
    parameters: {
      ...report.parameters,
      scenarios: [{ name: 'fib', description: 'fib', differentWork: { ...differentWork, modes: ['async'] } }],
    },
  };
}

describe('modes that do different work', () => {
  it('leaves their requests/s out of the answers and the headlines, and says why in the sentences', () => {
    const report = withDifferentWork();
    const ids = answerQuestions(report).map((q) => q.id);
    expect(ids).not.toContain('fib-async');
    expect(ids).toContain('fib-async-bystander');
    expect(ids).toContain('fib-worker');
    expect(benchHeadlines(report).some((h) => h.question.includes('fib') && h.question.includes('what does async'))).toBe(false);
    const fib = report.comparisons.find((c) => c.runtime === 'node' && c.scenario === 'fib');
    if (fib === undefined) throw new Error('no fib comparison');
    const lines = comparisonLines(report, fib);
    expect(
      lines.some((l) =>
        l.startsWith(
          "node: async vs sync, requests/s not compared: async answers before its blockers finish; compared instead: the request's p99 (p99 ",
        ),
      ),
    ).toBe(true);
    expect(lines.some((l) => l.startsWith('node: worker vs sync, requests/s: faster'))).toBe(true);
    expect(answerQuestions(answersReport()).map((q) => q.id)).toContain('fib-async');
  });

  it('is checked by the scenario contract', () => {
    const ok = { name: 'x', description: 'x', sync: () => 1, async: async () => 1 };
    expect(contractBreach({ ...ok, differentWork })).toBeUndefined();
    expect(contractBreach({ ...ok, differentWork: { modes: ['fast'], why: 'w', compares: 'c' } })).toMatch(
      /^export const differentWork is/,
    );
  });
});
