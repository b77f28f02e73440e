// judge() and the renderers on fixed measurements: the row carries the ratio, verdict and a why
// built from the figures given, and every output names each claim.
import { describe, expect, it } from 'vitest';
import { judge } from '../src/seeds/judge.ts';
import { renderSeedsConsole, renderSeedsHtml, renderSeedsMarkdown, type SeedsReport } from '../src/seeds/render.ts';
import { QUICK_SHAPE, type Measured } from '../src/seeds/replay-shape.ts';

const measured = (over: Partial<Measured>): Measured => ({
  claim: '000-bcrypt',
  runtime: 'node',
  status: 'ok',
  replayedSetup: 'ab -k -c 20 -n 250',
  unit: 'req/s',
  over: [24, 26],
  base: [12, 13],
  overLabel: 'async',
  baseLabel: 'sync',
  detail: {},
  ...over,
});

const report = (rows: SeedsReport['rows']): SeedsReport => ({
  kind: 'seeds',
  schemaVersion: 1,
  createdAt: '2026-11-22T17:00:00.000Z',
  status: 'complete',
  environment: {
    os: 'Debian',
    kernel: '6',
    cpu: { model: 'EPYC', count: 2 },
    memoryBytes: 2 ** 34,
    commit: 'abcdef1234567',
    dirty: false,
    loadGenerator: { name: 'autocannon', version: '8.0.0' },
    harnessNode: '20.20.2',
  },
  parameters: { ...QUICK_SHAPE, quick: true },
  clients: { ab: { version: '2.3' }, autocannon: '8.0.0' },
  runtimes: [{ name: 'node', version: '20.20.2', status: 'ok' }],
  rows,
});

describe('judge', () => {
  it('ratios per run, verdict and a why from the measured figures', () => {
    const row = judge(measured({}), 2);
    expect(row.ratio?.runs).toEqual([2, 2]);
    expect(row.verdict).toBe('partly');
    expect(row.ofClaim).toBeCloseTo(2 / (24.65 / 10.75), 6);
    // one sync hash: 1000 / 12.5 req/s = 80 ms
    expect(row.why).toMatch(/~80 ms in sync.*only 2 cores.*2\.00x/);
  });

  it('says so when the runs disagree too much for the verdict to mean anything', () => {
    const row = judge(
      measured({
        claim: '003-static',
        over: [10, 40],
        base: [20, 20],
        detail: { syncConnectMs: 1, asyncConnectMs: 1, syncTotalMs: 5, asyncTotalMs: 5 },
      }),
      2,
    );
    expect(row.verdict).toBe('inconclusive');
    expect(row.why).toMatch(/the runs disagree \(interval .* to .*\), too wide to confirm or refute/);
    expect(judge(measured({}), 2).why).not.toMatch(/disagree/);
    // Wide, but the claimed 1.27x is far outside it: judged, and the why says the runs disagreed.
    const clear = judge(measured({ claim: '003-static', over: [60, 200, 110], base: [10, 10, 10], detail: row.detail }), 2);
    expect(clear.verdict).toBe('partly');
    expect(clear.why).toMatch(/the runs disagree \(interval .* to .*\), yet the claimed figure lies outside it/);
  });

  it("says of 001's cold endpoints whether a file was read again or most reads were cold", () => {
    const cold = (over: number[], base: number[]) =>
      judge(
        measured({
          claim: '001-file-cold',
          unit: 'requests',
          over,
          base,
          detail: { cache: 'cold', evictedWith: 'fadvise', files: 100, syncAvgMs: 5, asyncAvgMs: 40 },
        }),
        2,
      ).why;
    expect(cold([1000, 1100], [900, 950])).toMatch(
      /each of the 100 files was read ~10 times per endpoint, so only its first read was cold/,
    );
    expect(cold([50, 54], [30, 34])).toMatch(/: ~42 reads of 100 files at random per endpoint, so most were cold/);
    expect(cold([50, 54], [30, 34])).not.toMatch(/only its first read/);
  });

  it('a skipped row keeps its reason and has no verdict', () => {
    const row = judge(measured({ status: 'skipped', reason: 'ab not found', over: [], base: [] }), 2);
    expect(row).toMatchObject({ verdict: 'not measured', why: 'skipped: ab not found', ratio: undefined });
  });
});

describe('renderers', () => {
  const rows = [judge(measured({}), 2), judge(measured({ claim: '002-busy-fib', over: [10.2, 10.1], base: [10, 10], unit: 'ms' }), 2)];
  it('Markdown and console: one row per claim and runtime, with the interval and verdict', () => {
    const md = renderSeedsMarkdown(report(rows));
    expect(md).toMatch(/^# Claims checked/);
    expect(md).toMatch(
      /000-bcrypt: async bcrypt serves 2\.29x.*node 20\.20\.2.*faster: 2\.00x, 2\.00–2\.00x; 2\.29x claimed.*partly: its direction, not its size/,
    );
    expect(md).toMatch(/002-busy-fib.*no gain: 1\.02x the time, 0\.95–1\.08x; 1\.00x claimed.*claim holds/);
    expect(
      renderSeedsConsole(report(rows))
        .split('\n')
        .filter((l) => l.startsWith('| 00')),
    ).toHaveLength(2);
  });

  it('HTML escapes what it did not write', () => {
    const html = renderSeedsHtml(report([judge(measured({ status: 'failed', reason: '<script>x</script>' }), 2)]));
    expect(html).not.toContain('<script>x');
    expect(html).toContain('&lt;script&gt;x');
  });
});
