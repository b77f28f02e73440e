/**
 * The HTML report opened from disk in headless Chromium: it must draw every chart without an
 * error and without the network, and show each flag next to its cell's figures. Leaves a
 * full-page screenshot in test-results/report-html.png for a person to look at.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadChartAssets } from '../../src/present/html-assets.ts';
import { renderHtml } from '../../src/report/render/html.ts';
import { CHROMIUM, installed, newPage, required } from './chromium.ts';
import { OVERFLOWING } from './overflow.ts';
import { EXPECTED_RUNTIMES, EXPECTED_SCENARIOS, htmlFixtureReport, LONG_REGEX } from '../fixtures/html-report.ts';

const HARNESS = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SCREENSHOT = join(HARNESS, 'test-results/report-html.png');

if (!installed && !required) console.warn(`browser tests SKIPPED: ${CHROMIUM} not found (install chromium; with CI set they fail instead)`);

interface ChartInfo {
  scenario: string;
  chart: string;
  type: string;
  width: number;
  labels: string[];
  datasets: { label: string; points: number; marks: string[] | null; ys: (number | null)[] }[];
}

/** Runs in the page: what Chart.js holds for each canvas the report marked as a chart. */
const READ_CHARTS = `[...document.querySelectorAll('canvas[data-chart]')].map((canvas) => {
  const chart = Chart.getChart(canvas);
  return {
    scenario: canvas.dataset.scenario, chart: canvas.dataset.chart, width: canvas.width,
    type: chart ? chart.config.type : 'none',
    labels: chart ? chart.data.labels : [],
    datasets: chart ? chart.data.datasets.map((d) => ({
      label: d.label, points: d.data.length, marks: d.marks || null,
      ys: d.data.map((p) => (p !== null && typeof p === 'object' ? p.y : p)),
    })) : [],
  };
})`;

describe.skipIf(!installed && !required)('report.html in headless Chromium', () => {
  let dir: string | undefined;
  let page: Page;
  let charts: ChartInfo[];
  const consoleErrors: string[] = [];
  const pageErrors: string[] = [];
  const remoteRequests: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'report-html-'));
    const file = join(dir, 'report.html');
    writeFileSync(file, renderHtml(htmlFixtureReport(), loadChartAssets()));
    page = await newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => pageErrors.push((error as Error).message));
    page.on('request', (request) => {
      if (!request.url().startsWith('file:')) remoteRequests.push(request.url());
    });
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    charts = (await page.evaluate(READ_CHARTS)) as ChartInfo[];
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });

  /** The text a reader sees in the first element `selector` matches. */
  const innerText = (selector: string) => page.$eval(selector, (el) => (el as HTMLElement).textContent);

  afterAll(async () => {
    await page?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('opens offline with no console error, no page error and no request off disk', () => {
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(remoteRequests).toEqual([]);
  });

  it('draws an rps, a latency and a loop chart for each scenario in the report, and no other', () => {
    for (const kind of ['rps', 'latency', 'loop']) {
      expect(charts.filter((c) => c.chart === kind).map((c) => c.scenario)).toEqual(Object.keys(EXPECTED_SCENARIOS));
    }
    for (const chart of charts) {
      expect(chart.type, `${chart.scenario}/${chart.chart}`).not.toBe('none');
      expect(chart.width).toBeGreaterThan(0);
    }
  });

  it('has one rps dataset per runtime with the scenario modes as labels, the skipped runtime empty', () => {
    for (const chart of charts.filter((c) => c.chart === 'rps')) {
      const expected = EXPECTED_SCENARIOS[chart.scenario as keyof typeof EXPECTED_SCENARIOS];
      expect(chart.type).toBe('barWithErrorBars');
      expect(chart.labels).toEqual(expected.modes);
      expect(chart.datasets.map((d) => d.label)).toEqual(['node', 'bun', 'deno (skipped)']);
      expect(chart.datasets.every((d) => d.points === expected.modes.length)).toBe(true);
      expect(chart.datasets[EXPECTED_RUNTIMES.indexOf('deno')]?.ys.every((y) => y === null)).toBe(true);
    }
  });

  it('has five series per latency and loop chart, one label per cell', () => {
    for (const chart of charts.filter((c) => c.chart !== 'rps')) {
      const expected = EXPECTED_SCENARIOS[chart.scenario as keyof typeof EXPECTED_SCENARIOS];
      expect(chart.labels).toHaveLength(expected.cells);
      expect(chart.datasets).toHaveLength(5);
      expect(chart.datasets.every((d) => d.points === expected.cells)).toBe(true);
    }
  });

  it('marks flagged, invalid and failed cells in the charts themselves', () => {
    const chart = (scenario: string, kind: string): ChartInfo | undefined =>
      charts.find((c) => c.scenario === scenario && c.chart === kind);
    const bun = EXPECTED_RUNTIMES.indexOf('bun');
    expect(chart('hello', 'rps')?.datasets[bun]?.marks).toEqual(['⚠', '']);
    expect(chart('hash', 'rps')?.datasets[bun]?.marks).toEqual(['✗', '']);
    expect(chart('fib', 'rps')?.datasets[bun]?.marks).toEqual(['', '', '✗']);
    expect(chart('fib', 'rps')?.datasets[bun]?.ys[2]).toBeNull();
    expect(chart('hello', 'latency')?.labels).toContain('bun baseline ⚠');
    expect(chart('fib', 'loop')?.labels).toContain('bun worker ✗');
  });

  /** The text of the notes a row's marks lead to (the list below its table, in its section). */
  const notesOfRow = (row: string): Promise<string> =>
    page.$$eval(`${row} a.badge`, (marks) =>
      marks
        .map((mark) => {
          const note = document.getElementById((mark.getAttribute('href') ?? '').slice(1));
          return note?.checkVisibility() && note.closest('section') === mark.closest('section') ? (note.textContent ?? '') : '';
        })
        .join('\n'),
    );

  it('marks each flagged row with numbers that lead to its notes, listed below the table in the scenario’s own section', async () => {
    const cell = 'section[data-scenario="hello"] tr[data-runtime="bun"][data-mode="baseline"]';
    expect(await page.$eval(cell, (el) => el.getAttribute('data-flags'))).toBe('client-bound');
    expect(await page.$eval(cell, (el) => el.checkVisibility())).toBe(true);
    const text = await innerText(cell);
    expect(text).toContain('61,234');
    expect(text).not.toContain('client-bound');
    expect(await notesOfRow(cell)).toMatch(/⚠ client-bound .*: bun baseline/);
    expect(await notesOfRow('section[data-scenario="fib"] tr[data-runtime="node"][data-mode="async"]')).toContain('node async (CV 28 %)');
    expect(await notesOfRow('section[data-scenario="sleep"] tr[data-runtime="node"][data-mode="sync"]')).toContain('⚠ count-mismatch');
    expect(await notesOfRow('section[data-scenario="fib"] tr[data-runtime="bun"][data-mode="worker"]')).toContain(
      'bun worker (server exited with code 1)',
    );
    expect(await innerText('section[data-scenario="hash"] tr[data-runtime="deno"]')).toContain('skipped: deno not installed');
  });

  it('names a regular expression that held the loop by its first characters, with its file and line', async () => {
    const profiles = await innerText('section[data-scenario="fib"] details.profiles');
    expect(profiles).toContain('RegExp /^(?! {0,3}…/ (marked/lib/marked.esm.js:1520)');
    expect(profiles).not.toContain(LONG_REGEX.slice(0, 40));
    // The summary card's loop sentence quotes the holder by the same short name.
    const card = await innerText('.card[data-runtime="bun"]');
    expect(card).toContain('RegExp /^(?! {0,3}…/');
    expect(card).not.toContain(LONG_REGEX.slice(0, 40));
  });

  it('keeps every text inside its box at 1280 px: nothing overflows an element that does not scroll', async () => {
    const overflowing = (await page.evaluate(OVERFLOWING)) as string[];
    expect(overflowing).toEqual([]);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1280);
  });

  it('has an overflow check that sees text leaving its box (so its silence above means something)', async () => {
    const probe = await newPage();
    await probe.setContent(`<main><div style="width:120px"><p>${'x'.repeat(80)}</p></div></main>`);
    expect(((await probe.evaluate(OVERFLOWING)) as string[]).join()).toMatch(/(^|,)p: x+/);
    await probe.close();
  });

  it('shows a reason containing markup as text, never running it', async () => {
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    expect(await innerText('section[data-scenario="hash"] ol.cell-notes')).toContain('</script><script>window.pwned = 1</script>');
  });
});
