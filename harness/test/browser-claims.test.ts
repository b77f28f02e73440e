// The claims' verdicts from fixed cases: each rule must be able to come out either way.
import { describe, expect, it } from 'vitest';
import { checkClaims } from '../src/browser/claims.ts';
import { renderBrowserMarkdown } from '../src/browser/render-md.ts';
import { fibIterative, type BrowserCaseResult, type BrowserSection } from '../src/browser/study.ts';

function c(
  browser: 'chromium' | 'firefox',
  variant: 'plain' | 'busy' | 'memo',
  mode: 'sync' | 'async' | 'worker',
  n: number,
  ms: number,
  lateP99: number,
  status: 'ok' | 'failed' = 'ok',
): BrowserCaseResult {
  return {
    browser,
    variant,
    mode,
    n,
    status,
    expected: fibIterative(n),
    value: fibIterative(n),
    callMs: { median: ms, min: ms, max: ms, samples: [ms], callsPerSample: 1 },
    timerLateMs: { p50: lateP99, p99: lateP99, max: lateP99, ticks: 10 },
    raf: { frames: 10, expected: 10, missed: 0, maxGapMs: 17 },
  };
}

const section = (cases: BrowserCaseResult[]): BrowserSection => ({
  driver: 'puppeteer-core test',
  browsers: [],
  cases,
  parameters: {
    ladder: { plain: [20], busy: [14], memo: [300], 'memo-late': [20] },
    busyExponent: 6,
    asyncDepth: 'full',
    warmupMs: 0,
    samples: 1,
  },
});

describe('browser claims', () => {
  it('fib by iteration gives the known values', () => {
    expect([0, 1, 2, 10, 20, 78].map(fibIterative)).toEqual([0, 1, 1, 55, 6765, 8944394323791464]);
  });

  it('confirms each claim when the figures say so', () => {
    const v = checkClaims(
      section([
        c('chromium', 'plain', 'sync', 20, 0.1, 30),
        c('chromium', 'plain', 'async', 20, 5, 30),
        c('firefox', 'plain', 'sync', 20, 0.1, 30),
        c('firefox', 'plain', 'async', 20, 50, 30),
        c('chromium', 'busy', 'sync', 14, 40, 50),
        c('chromium', 'busy', 'async', 14, 42, 50),
        c('chromium', 'memo', 'sync', 300, 0.01, 20),
        c('chromium', 'memo', 'async', 300, 0.2, 20),
        c('chromium', 'plain', 'worker', 20, 0.12, 1),
      ]),
    );
    expect(v.map((x) => x.verdict)).toEqual(['confirmed', 'confirmed', 'confirmed', 'not measured', 'confirmed', 'confirmed']);
  });

  it('refutes them when the figures do not, and ignores failed cases', () => {
    const v = checkClaims(
      section([
        c('chromium', 'plain', 'sync', 20, 1, 30),
        { ...c('chromium', 'plain', 'async', 20, 2, 30), cpu: { cpuMs: 90, wallMs: 100, cores: 0.9, top: [] } },
        c('firefox', 'plain', 'async', 20, 1, 30),
        c('chromium', 'busy', 'sync', 14, 40, 50),
        c('chromium', 'busy', 'async', 14, 80, 50),
        c('chromium', 'memo', 'sync', 300, 0.3, 20),
        c('chromium', 'memo', 'async', 300, 0.2, 20),
        c('chromium', 'plain', 'worker', 20, 1, 25),
        c('firefox', 'plain', 'sync', 20, 1, 30, 'failed'),
      ]),
    );
    expect(v.map((x) => x.verdict)).toEqual(['refuted', 'refuted', 'refuted', 'refuted', 'refuted', 'refuted']);
    expect(checkClaims(section([])).every((x) => x.verdict === 'not measured')).toBe(true);
  });

  it('renders a table row per case and the failure reason', () => {
    const failed = { ...c('firefox', 'plain', 'async', 20, 1, 1, 'failed'), reason: 'page crashed' };
    const md = renderBrowserMarkdown(section([c('chromium', 'plain', 'sync', 20, 0.1, 30), failed]));
    expect(md).toContain('| chromium | plain');
    expect(md).toContain('failed: page crashed');
  });
});
