/**
 * A --connections sweep's report.html in headless Chromium: the concurrency chart draws (req/s
 * and p99 per runtime x mode against connections) next to the usual charts, without errors.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeReport } from '../../src/report/merge.ts';
import { loadChartAssets } from '../../src/present/html-assets.ts';
import { renderHtml } from '../../src/report/render/html.ts';
import { environment, makeCell, parameters, runtimes } from '../fixtures.ts';
import { installed, newPage, required } from './chromium.ts';

const READ = `[...document.querySelectorAll('canvas[data-chart="concurrency"]')].map((canvas) => {
  const chart = Chart.getChart(canvas);
  return { scenario: canvas.dataset.scenario, datasets: chart ? chart.data.datasets.map((d) => ({ label: d.label, xs: d.data.map((p) => p.x) })) : [] };
})`;

describe.skipIf(!installed && !required)('concurrency sweep in report.html (headless Chromium)', () => {
  let dir: string | undefined;
  let page: Page | undefined;
  let charts: { scenario: string; datasets: { label: string; xs: number[] }[] }[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    const cells = [1, 10, 100].flatMap((connections) =>
      (['sync', 'async'] as const).map((mode) => ({
        ...makeCell({ runtime: 'node', scenario: 'sleep', mode }, { rps: mode === 'sync' ? 45 : 45 * connections }),
        connections,
      })),
    );
    const report = mergeReport({
      createdAt: '2026-11-23T00:00:00Z',
      status: 'complete',
      environment,
      parameters: { ...parameters, connectionsSweep: [1, 10, 100] },
      runtimes,
      results: cells,
    });
    dir = mkdtempSync(join(tmpdir(), 'concurrency-html-'));
    const file = join(dir, 'report.html');
    writeFileSync(file, renderHtml(report, loadChartAssets()));
    page = await newPage();
    page.on('pageerror', (e) => errors.push((e as Error).message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    charts = (await page.evaluate(READ)) as typeof charts;
  });

  afterAll(async () => {
    await page?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('draws one concurrency chart per swept scenario: req/s and p99 lines per runtime x mode', () => {
    expect(errors).toEqual([]);
    expect(charts).toEqual([
      {
        scenario: 'sleep',
        datasets: [
          { label: 'node sync req/s', xs: [1, 10, 100] },
          { label: 'node sync p99', xs: [1, 10, 100] },
          { label: 'node async req/s', xs: [1, 10, 100] },
          { label: 'node async p99', xs: [1, 10, 100] },
        ],
      },
    ]);
  });
});
