/**
 * The curve report's HTML opened from disk in headless Chromium: one line chart per scenario, a
 * line per runtime x mode plus the target, log scales, no error and no network.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCurveHtml } from '../../src/curve/render-html.ts';
import { loadChartAssets } from '../../src/present/html-assets.ts';
import { CURVE_REPORT } from '../fixtures/curve-report.ts';
import { CHROMIUM, installed, newPage, required } from './chromium.ts';

if (!installed && !required) console.warn(`curve browser test SKIPPED: ${CHROMIUM} not found`);

interface CurveChart {
  scenario: string;
  type: string;
  x: string;
  y: string;
  datasets: { label: string; points: number }[];
}

const READ = `[...document.querySelectorAll('canvas[data-chart="curve"]')].map((canvas) => {
  const chart = Chart.getChart(canvas);
  return { scenario: canvas.dataset.scenario, type: chart ? chart.config.type : 'none',
    x: chart ? chart.scales.x.type : '', y: chart ? chart.scales.y.type : '',
    datasets: chart ? chart.data.datasets.map((d) => ({ label: d.label, points: d.data.length })) : [] };
})`;

describe.skipIf(!installed && !required)('curve report.html in headless Chromium', () => {
  let dir: string | undefined;
  let page: Page | undefined;
  let charts: CurveChart[] = [];
  const errors: string[] = [];
  const remote: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'curve-html-'));
    const file = join(dir, 'report.html');
    writeFileSync(file, renderCurveHtml(CURVE_REPORT, loadChartAssets()));
    page = await newPage();
    await page.setViewport({ width: 1200, height: 900 });
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push((e as Error).message));
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) remote.push(r.url());
    });
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    charts = (await page.evaluate(READ)) as CurveChart[];
  });

  afterAll(async () => {
    await page?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('draws offline, without errors', () => {
    expect(errors).toEqual([]);
    expect(remote).toEqual([]);
  });

  it('one log-log line chart per scenario: a line per runtime x mode with steps, and the target', () => {
    expect(charts.map((c) => c.scenario)).toEqual(['hash', 'sleep']);
    const sleep = charts.find((c) => c.scenario === 'sleep');
    expect(sleep).toMatchObject({ type: 'line', x: 'logarithmic', y: 'logarithmic' });
    expect(sleep?.datasets).toEqual([
      { label: 'node sync', points: 3 },
      { label: 'node async', points: 2 },
      { label: 'target p99 ≤ 100 ms', points: 2 },
    ]);
  });
});
