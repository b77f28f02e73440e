import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadChartAssets } from '../src/present/html-assets.ts';
import { renderHtml } from '../src/report/render/html.ts';
import { renderMarkdown } from '../src/report/render/markdown.ts';
import { htmlFixtureReport } from './fixtures/html-report.ts';
import { abFeatures, compareAb } from '../src/ab/ab-section.ts';
import { EXPORT_FORMATS, exportReport } from '../src/report/export-formats.ts';
import type { Report } from '../src/model/report.ts';
import { CommandError } from '../src/cli/command.ts';
import { readReport } from '../src/report-file.ts';
import { HARNESS_NODE_ARGS, thrownBy } from './harness-cli.ts';

const HARNESS = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(HARNESS, 'src/report-cli.ts');
const dir = mkdtempSync(join(tmpdir(), 'report-cli-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(file: string, ...flags: string[]): { status: number | null; stdout: string; stderr: string } {
  // INIT_CWD (set when tests run under pnpm) would re-anchor a relative path; these are absolute.
  const result = spawnSync(process.execPath, [...HARNESS_NODE_ARGS, CLI, file, ...flags], {
    cwd: HARNESS,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function write(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('report-cli', () => {
  it('re-renders report.md and report.html next to report.json, leaving the JSON as it was', () => {
    const report = htmlFixtureReport();
    const json = `${JSON.stringify(report, null, 2)}\n`;
    const path = write('report.json', json);
    const result = run(path);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toBe(renderMarkdown(report));
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toBe(renderHtml(report, loadChartAssets()));
    expect(readFileSync(path, 'utf8')).toBe(json);
    // Atomic writes leave no temporary files behind.
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('exits 2 with one line on stderr for a missing file', () => {
    const result = run(join(dir, 'missing/report.json'));
    expect(result.status).toBe(2);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/cannot read .*ENOENT/);
    expect(result.stdout).toBe('');
  });

  // The other refusals come from where the missing file's does, the report's reading: a
  // CommandError, whose message the command prints as its one line on stderr and exits 2, as it
  // did above. Read here without starting a process for each.
  const bad: [string, () => string, RegExp][] = [
    ['invalid JSON', () => write('broken.json', '{"schemaVersion": 1,'), /is not valid JSON/],
    ['a wrong schemaVersion', () => write('v2.json', JSON.stringify({ ...htmlFixtureReport(), schemaVersion: 2 })), /schemaVersion 2/],
    ['JSON that is not a report', () => write('array.json', '[1, 2]'), /is not a report/],
  ];
  for (const [what, path, message] of bad) {
    it(`refuses ${what} in one line`, () => {
      const refusal = thrownBy(() => readReport(path()));
      expect(refusal).toBeInstanceOf(CommandError);
      const lines = (refusal as Error).message.split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(message);
    });
  }
});

describe('report-cli --format on an A/B report', () => {
  const sample = (file: string) => JSON.parse(readFileSync(resolve(HARNESS, '../docs/results/ab', file), 'utf8')) as Report;
  /** A report's verdicts as another rule might have stored them. */
  const staled = (report: Report): Report => ({
    ...report,
    ab: {
      cells: (report.ab?.cells ?? []).map((c) => ({
        ...c,
        verdict: c.verdict === 'improved' ? 'regressed' : 'improved',
        ratio: 1.5,
        ci95: [1.4, 1.6] as [number, number],
      })),
      counts: { regressed: 0, improved: 1, unchanged: 0, inconclusive: 0 },
    },
  });

  it.each(EXPORT_FORMATS)('%s exports the verdicts its runs give under the current rule, not the ones stored', (format) => {
    // A committed bench:ab sample that kept its runs' details.
    const stale = staled(sample('pairs-file-deno/ab-02/report.json'));
    const plan = stale.parameters.ab;
    if (plan === undefined) throw new Error('the sample is not a bench:ab report');
    const result = run(write(`ab-stale-${format}.json`, JSON.stringify(stale)), '--format', format);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(exportReport({ ...stale, ab: compareAb(stale.results, plan) }, format));
    // The p99 export carries no A/B figures; the other two would differ had the stored ones gone out.
    if (format !== 'github-action-benchmark-p99') expect(result.stdout).not.toBe(exportReport(stale, format));
  });

  it('re-renders its report.md with those verdicts too', () => {
    const stale = staled(sample('pairs-file-deno/ab-02/report.json'));
    const plan = stale.parameters.ab;
    if (plan === undefined) throw new Error('the sample is not a bench:ab report');
    const folder = join(dir, 'ab-rerender');
    mkdirSync(folder);
    const path = join(folder, 'report.json');
    writeFileSync(path, JSON.stringify(stale));
    const result = run(path);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const derived = { ...stale, ab: compareAb(stale.results, plan) };
    const markdown = readFileSync(join(folder, 'report.md'), 'utf8');
    expect(markdown).toBe(renderMarkdown(derived, abFeatures.sections?.(derived)));
    expect(markdown).not.toContain('1.500x');
  });

  it('exports the stored verdicts of a report that kept no runs to judge them from', () => {
    const trimmed = staled(sample('pairs/ab-03/report.json'));
    expect(trimmed.results.every((c) => c.runDetails === undefined)).toBe(true);
    const result = run(write('ab-trimmed.json', JSON.stringify(trimmed)), '--format', 'bmf');
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(exportReport(trimmed, 'bmf'));
  });
});

describe('report-cli on a curve report', () => {
  it('re-renders it with the curve renderers', async () => {
    const { CURVE_REPORT } = await import('./fixtures/curve-report.ts');
    const { renderCurveMarkdown } = await import('../src/curve/render-text.ts');
    const sub = mkdtempSync(join(dir, 'curve-'));
    const path = join(sub, 'report.json');
    writeFileSync(path, JSON.stringify(CURVE_REPORT));
    const result = run(path);
    expect(result.status).toBe(0);
    expect(readFileSync(join(sub, 'report.md'), 'utf8')).toBe(renderCurveMarkdown(CURVE_REPORT));
    expect(readFileSync(join(sub, 'report.html'), 'utf8')).toContain('data-chart="curve"');
  });
});
