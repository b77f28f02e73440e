/**
 * The results site's headlines and run selection on fixed reports: figures equal the report's,
 * an interval holding 1 within the margin reads "no gain", the newest run of each kind is shown,
 * and a corrupt, partial or foreign folder is listed as skipped while the site still builds.
 */
import { formatDate } from '../src/present/formats.ts';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { benchHeadlines } from '../src/report/bench-section.ts';
import { pairedRatioInterval, ratioConfidence } from '../src/present/headline.ts';
import { holdsOne } from '../src/stats/paired.ts';
import { mergeReport } from '../src/report/merge.ts';
import type { Report } from '../src/model/report.ts';
import { curveHeadlines } from '../src/curve/curve-section.ts';
import { seedsHeadlines } from '../src/seeds/seeds-section.ts';
import type { SeedsReport } from '../src/seeds/render.ts';
import { rebuildSite, siteMarkdown } from '../src/site-kinds.ts';
import { environment, makeCell, parameters } from './fixtures.ts';
import { CURVE_REPORT } from './fixtures/curve-report.ts';
import { htmlFixtureReport } from './fixtures/html-report.ts';

const root = mkdtempSync(join(tmpdir(), 'site-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A bench report of node hash sync/async whose async runs are these (sync runs 100 each). */
function hashReport(asyncRuns: number[], createdAt = '2026-11-23T10:00:00.000Z'): Report {
  const median = [...asyncRuns].sort((a, b) => a - b)[Math.floor(asyncRuns.length / 2)] ?? 0;
  return mergeReport({
    createdAt,
    status: 'complete',
    environment,
    parameters,
    runtimes: [{ name: 'node', version: '24.21.0', status: 'ok' }],
    results: [
      makeCell({
        runtime: 'node',
        scenario: 'hash',
        mode: 'sync',
        requestsPerSec: { median: 100, ci95: [90, 110], cv: 0.1, runs: [100, 100, 100] },
      }),
      makeCell({ runtime: 'node', scenario: 'hash', mode: 'async', requestsPerSec: { median, ci95: [0, 0], cv: 0.1, runs: asyncRuns } }),
    ],
  });
}

describe('how sure a ratio is', () => {
  it('says "no gain" when the 95 % interval holds 1 within the margin, and gives the interval otherwise', () => {
    expect(holdsOne([0.9, 1.1])).toBe(true);
    expect(ratioConfidence([0.9, 1.1])).toBe('no gain (95 % CI 0.90x-1.10x)');
    expect(holdsOne([1.2, 1.5])).toBe(false);
    expect(ratioConfidence([1.2, 1.5])).toBe('95 % CI 1.20x-1.50x');
  });

  it('calls a wide interval holding 1, or a shared-host cell, could not tell, never "no gain"', () => {
    expect(ratioConfidence([0.91, 2.43])).toBe('could not tell (95 % CI 0.91x-2.43x)');
    expect(ratioConfidence([1.15, 1.9])).toBe('faster, too uncertain to size (95 % CI 1.15x-1.90x)');
    expect(ratioConfidence([0.95, 1.05], 'the host was shared during async')).toBe('could not tell: the host was shared during async');
  });

  it('needs three paired runs for an interval of a ratio', () => {
    expect(pairedRatioInterval([2, 2], [1, 1])).toBeUndefined();
    const ci = pairedRatioInterval([2, 2.2, 1.8], [1, 1, 1]);
    expect(ci?.[0]).toBeLessThan(2);
    expect(ci?.[1]).toBeGreaterThan(2);
  });
});

describe('bench headlines', () => {
  it("quote the report's own ratios, per runtime and scenario, for ok cells only", () => {
    const report = htmlFixtureReport();
    const lines = benchHeadlines(report);
    const nodeHash = report.comparisons.find((c) => c.runtime === 'node' && c.scenario === 'hash')?.asyncOverSync?.throughput;
    const hash = lines.find((h) => h.question.startsWith('node, hash: what does async'));
    expect(hash?.figure).toBe(`${nodeHash?.toFixed(2)}x`);
    expect(hash?.anchor).toBe('scenario-hash');
    // bun hash sync is invalid and bun fib worker failed: neither is a finding.
    expect(lines.some((h) => h.question.startsWith('bun, hash'))).toBe(false);
    expect(lines.some((h) => h.question.startsWith('bun, fib: what does a worker pool'))).toBe(false);
    // hello has no blocking mode to buy back from.
    expect(lines.some((h) => h.question.includes(', hello'))).toBe(false);
  });

  it("say what more processes buy, from the report's process comparisons", () => {
    const report = {
      ...hashReport([200, 210, 190]),
      processComparisons: [
        { runtime: 'node', scenario: 'hash', processes: 2, syncNOverSync1: { throughput: 1.8, p99: 0.6, probeP99: 0.5, rss: 2.1 } },
      ],
    } as Report;
    const line = benchHeadlines(report).find((h) => h.anchor === 'processes');
    expect(line).toMatchObject({ figure: '1.80x', answer: '1.80x the requests/s, for 2.10x the memory' });
    expect(line?.question).toContain('what do 2 processes buy (sync on 2 processes over sync on 1)');
  });

  it('call a narrow interval holding 1 "no gain" in the answer itself, a wide one could not tell', () => {
    const [wide] = benchHeadlines(hashReport([90, 105, 112]));
    expect(wide?.answer).toMatch(/^async vs sync, requests\/s: could not tell: /);
    const [same] = benchHeadlines(hashReport([98, 101, 103]));
    expect(same?.answer).toMatch(/^async vs sync, requests\/s: no gain: 1\.0\dx/);
    expect(same?.confidence).toMatch(/^no gain \(95 % CI/);
    const [faster] = benchHeadlines(hashReport([200, 210, 190]));
    expect(faster?.answer).toMatch(/^async vs sync, requests\/s: faster: 2\.00x/);
    expect(faster?.confidence).toMatch(/^95 % CI 1\.\d\dx-2\.\d\dx$/);
  });
});

describe('curve and seeds headlines', () => {
  it('give each ok curve its capacity at the target, and none for a failed curve', () => {
    const lines = curveHeadlines(CURVE_REPORT);
    expect(lines.map((h) => [h.question.split(':')[0], h.figure])).toEqual([
      ['node, sleep sync', '40.0'],
      ['node, sleep async', '≥ 420'],
    ]);
    expect(lines[1]?.confidence).toMatch(/lower bound/);
  });

  it('give each seed claim its verdict, ratio and interval', () => {
    const row = {
      claim: '000-bcrypt',
      runtime: 'node',
      status: 'ok',
      claimed: 2.29,
      ratio: { runs: [1.9, 2, 2.1], median: 2, ci95: [1.8, 2.2] },
      verdict: 'partly',
    };
    const lines = seedsHeadlines({ rows: [row] } as unknown as SeedsReport);
    expect(lines[0]).toMatchObject({
      figure: '2.00x',
      answer: 'partly: its direction, not its size (measured faster: 2.00x, 1.80–2.20x; 2.29x claimed)',
      confidence: '95 % CI 1.80x-2.20x',
    });
  });
});

describe('the site from a results folder', () => {
  const results = join(root, 'results');
  const put = (dir: string, file: string, content: string) => {
    mkdirSync(join(results, dir), { recursive: true });
    writeFileSync(join(results, dir, file), content);
  };
  put('old', 'report.json', JSON.stringify(hashReport([200, 210, 190], '2026-11-20T10:00:00.000Z')));
  put('new', 'report.json', JSON.stringify(hashReport([300, 310, 290], '2026-11-22T10:00:00.000Z')));
  put('curve-1', 'report.json', JSON.stringify(CURVE_REPORT));
  put('corrupt', 'report.json', '{"schemaVersion": 1,');
  put('foreign', 'report.json', JSON.stringify({ schemaVersion: 1, kind: 'weather', createdAt: 'x' }));
  put('partial', 'meta.json', '{}');
  mkdirSync(join(results, 'new', 'cells'), { recursive: true });

  it('shows the newest run of each kind, lists the older ones, and lists bad folders as skipped', () => {
    const site = rebuildSite([results], join(results, 'site'));
    expect(site.input.runs.map((r) => r.dir.split('/').pop()).sort()).toEqual(['curve-1', 'new', 'old']);
    expect(Object.fromEntries(site.input.skipped.map((s) => [relative(results, s.path).split('/')[0], s.reason]))).toEqual({
      corrupt: expect.stringMatching(/^not valid JSON/),
      foreign: 'not a report this site knows (kind "weather")',
      partial: expect.stringMatching(/^partial run: no report\.json/),
    });
    const md = readFileSync(site.markdown, 'utf8');
    // The newest bench run's 3.00x, not the older 2.00x; links relative to the site's folder.
    expect(md).toContain('async vs sync, requests/s: faster: 3.00x');
    expect(md).not.toContain('2.00x the requests/s');
    expect(md).toContain('](../new/report.json#scenario-hash)');
    expect(md).toContain('](../curve-1/report.json#curve-sleep)');
    const html = readFileSync(site.html, 'utf8');
    expect(html).toContain('id="bench"');
    expect(html).toContain('id="curve"');
    expect(html.match(/<table class="runs">[\s\S]*?<\/table>/)?.[0]).toContain('>old</a>');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
  });

  it("gives the docs generator the same front page and each kind's newest report as Markdown", () => {
    const out = siteMarkdown([results], join(results, 'site'));
    expect(out.frontPage).toBe(readFileSync(join(results, 'site', 'index.md'), 'utf8'));
    expect(out.sections.map((s) => [s.kind, s.dir.split('/').pop()])).toEqual([
      ['bench', 'new'],
      ['curve', 'curve-1'],
    ]);
    expect(out.sections[0]?.markdown).toMatch(/^# /);
  });
});

describe('versions headlines', () => {
  it('say which version is slower, with the test behind it, and call no significant change "no change"', async () => {
    const { withFeatures } = await import('../src/model/section.ts');
    const { versionFeatures, versionsSection } = await import('../src/versions/versions-section.ts');
    const { makeRun } = await import('./fixtures.ts');
    const cell = (label: string, version: string, rps: number[]) =>
      makeCell({
        runtime: 'node',
        scenario: 'hash',
        mode: 'sync',
        runtimeLabel: label,
        runtimeVersion: version,
        runDetails: rps.map((r) => makeRun({ requestsPerSec: r })),
        requestsPerSec: { median: rps[1] ?? 0, ci95: [0, 0], cv: 0, runs: rps },
      });
    const runtimes = [
      { name: 'node' as const, version: '22.23.3', status: 'ok' as const, label: 'node@22' },
      { name: 'node' as const, version: '24.21.0', status: 'ok' as const, label: 'node@24' },
    ];
    const make = (r24: number[]) =>
      withFeatures(
        mergeReport({
          createdAt: '2026-11-23T00:00:00Z',
          status: 'complete',
          environment,
          parameters,
          runtimes,
          results: [cell('node@22', '22.23.3', [100, 102, 98]), cell('node@24', '24.21.0', r24)],
        }),
        versionFeatures,
      );
    const [worse] = versionsSection(make([80, 81, 79]))?.headlines ?? [];
    expect(worse).toMatchObject({ figure: '0.80x', anchor: 'versions' });
    expect(worse?.answer).toMatch(/^slower: 0\.80x the requests\/s/);
    expect(worse?.confidence).toMatch(/^Welch p = /);
    const [same] = versionsSection(make([99, 103, 101]))?.headlines ?? [];
    expect(same?.answer).toMatch(/^no change in requests\/s/);
  });
});

describe('browser and calibration headlines', () => {
  it('give each browser claim its verdict and evidence', async () => {
    const { browserHeadlines } = await import('../src/browser/browser-section.ts');
    const { checkClaims } = await import('../src/browser/claims.ts');
    const kase = (mode: string, ms: number) => ({
      browser: 'chromium',
      variant: 'plain',
      mode,
      n: 18,
      status: 'ok',
      expected: 2584,
      callMs: { median: ms, min: ms, max: ms, samples: [ms], callsPerSample: 1 },
    });
    const study = {
      driver: 'x',
      browsers: [],
      parameters: { ladder: {}, busyExponent: 2, asyncDepth: 'full', warmupMs: 0, samples: 5 },
      cases: [kase('sync', 0.1), kase('async', 5)],
    } as never;
    const lines = browserHeadlines(study);
    expect(lines).toHaveLength(checkClaims(study).length);
    expect(lines[0]).toMatchObject({ figure: 'confirmed', answer: 'confirmed: async/sync time: chromium n=18: 50x' });
  });

  it('say per server whether the generator reaches wrk', async () => {
    const { calibrateHeadlines } = await import('../src/calibrate/calibrate-section.ts');
    const figures = (median: number) => ({ median, cv: 0.01, runs: [median], serverCpuPercent: 90 });
    const best = {
      setting: { connections: 50, workers: 0 },
      autocannon: { ...figures(9000), clientCpuPercent: 99 },
      wrk: figures(10000),
      ratio: 0.9,
      ceilingOk: true,
      unstable: false,
      text: '>= 0.85 of wrk',
    };
    const result = {
      parameters: { runs: 3 },
      results: [
        { runtime: 'node', server: 'raw', version: '24.21.0', status: 'ok', settings: [best], best },
        { runtime: 'bun', server: 'raw', version: '', status: 'skipped', settings: [], best: null },
      ],
    } as never;
    const lines = calibrateHeadlines(result);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      figure: '0.90 of wrk',
      answer: 'autocannon 9,000 req/s vs wrk 10,000: >= 0.85 of wrk',
      confidence: 'median of 3 run(s) per client',
    });
  });
});

describe('the front page answers', () => {
  it('draws a picture per question of the newest bench run, with the findings, in the HTML and beside index.md', async () => {
    const { answersReport } = await import('./fixtures/answers-report.ts');
    const results = join(root, 'answers');
    mkdirSync(join(results, 'run'), { recursive: true });
    writeFileSync(join(results, 'run', 'report.json'), JSON.stringify(answersReport()));
    const site = rebuildSite([results], join(results, 'site'));
    const html = readFileSync(site.html, 'utf8');
    const front = html.slice(html.indexOf('id="front"'), html.indexOf('<table class="headlines"'));
    const questions = [...front.matchAll(/<figure class="forest" id="answer-([a-z-]+)"><svg /g)].map((m) => m[1]);
    expect(questions).toContain('fib-worker');
    expect(questions.indexOf('fib-worker')).toBeLessThan(questions.indexOf('fib-async'));
    expect(front).toContain('<div class="finding" data-finding="loop">');
    expect(front).toContain('node: async stayed on the loop in fib');
    const md = readFileSync(site.markdown, 'utf8');
    expect(md).toContain('![fib: worker over sync, requests/s](answers/bench-fib-worker.svg)');
    expect(md).toContain('### Where a worker pays');
    expect(readFileSync(join(results, 'site', 'answers', 'bench-fib-worker.svg'), 'utf8')).toMatch(/^<svg [^>]*data-question="fib-worker"/);
  });

  it('answers each question from the newest run that asked it: a narrower newer run does not hide an older answer', async () => {
    const { answersReport } = await import('./fixtures/answers-report.ts');
    const results = join(root, 'answers-two');
    const older = answersReport();
    const newer = { ...older, createdAt: '2026-11-27T10:00:00.000Z', results: older.results.filter((c) => c.scenario !== 'fib') };
    newer.comparisons = older.comparisons.filter((c) => c.scenario !== 'fib');
    for (const [dir, report] of [
      ['old', older],
      ['new', newer],
    ] as const) {
      mkdirSync(join(results, dir), { recursive: true });
      writeFileSync(join(results, dir, 'report.json'), JSON.stringify(report));
    }
    const site = rebuildSite([results], join(results, 'site'));
    const md = readFileSync(site.markdown, 'utf8');
    // fib is answered from the older run, named with its date; the rest from the newer one.
    expect(md).toContain('answers/bench-fib-worker.svg');
    const fibAt = md.indexOf('answers/bench-fib-worker.svg');
    const fromOld = md.lastIndexOf(`From run of ${formatDate(older.createdAt)}`, fibAt);
    const fromNew = md.lastIndexOf(`From run of ${formatDate(newer.createdAt)}`, fibAt);
    expect(fromOld).toBeGreaterThan(fromNew);
  });
});
