/**
 * The results site opened from disk in headless Chromium: every tab is there, each kind's page
 * draws its charts with data inside the site, nothing is fetched off disk, no console error, and
 * the front page's figures equal those in the reports its links point at (the test reads both).
 * Leaves a screenshot in test-results/site-html.png for a person to look at.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRatio } from '../../src/present/formats.ts';
import type { Report } from '../../src/model/report.ts';
import { rebuildSite } from '../../src/site-kinds.ts';
import { CURVE_REPORT } from '../fixtures/curve-report.ts';
import { htmlFixtureReport } from '../fixtures/html-report.ts';
import { installed, newPage, required } from './chromium.ts';
import { OVERFLOWING } from './overflow.ts';

const HARNESS = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SCREENSHOT = join(HARNESS, 'test-results/site-html.png');

interface Row {
  kind: string;
  figure: string;
  question: string;
  href: string;
}

describe.skipIf(!installed && !required)('the results site in headless Chromium', () => {
  let dir: string | undefined;
  let page: Page;
  let siteFile: string;
  const consoleErrors: string[] = [];
  const pageErrors: string[] = [];
  const offDisk: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'site-html-'));
    const put = (run: string, value: unknown) => {
      mkdirSync(join(dir as string, run), { recursive: true });
      writeFileSync(join(dir as string, run, 'report.json'), JSON.stringify(value));
    };
    put('bench-1', htmlFixtureReport());
    put('curve-1', CURVE_REPORT);
    siteFile = rebuildSite([dir], join(dir, 'site')).html;
    page = await newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => pageErrors.push((e as Error).message));
    page.on('request', (r) => {
      if (!r.url().startsWith('file:') && !r.url().startsWith('about:')) offDisk.push(r.url());
    });
    await page.goto(pathToFileURL(siteFile).href, { waitUntil: 'load' });
  });

  /** Runs in the page. Shown: laid out with a size (what playwright's isVisible checked). */
  const shown = (sel: string) => {
    const el = document.querySelector(sel);
    if (el === null) return false;
    const box = el.getBoundingClientRect();
    return getComputedStyle(el).visibility !== 'hidden' && box.width > 0 && box.height > 0;
  };
  /** Shown, or shown within 2 s: a tab switch runs in the page's own click/hashchange handler. */
  const isVisible = async (selector: string) => {
    try {
      await page.waitForFunction(shown, { timeout: 2000 }, selector);
      return true;
    } catch {
      return false;
    }
  };
  /**
   * Shown right now. Read once the tab that should be shown is (isVisible): the switch that hides
   * the others has run, so there is nothing left to wait for.
   */
  const isShownNow = (selector: string) => page.evaluate(shown, selector);

  afterAll(async () => {
    await page?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('has the front page and one tab per kind of run found, each reachable by its link', async () => {
    const tabs = await page.$$eval('nav.tabs a', (as) => as.map((a) => a.getAttribute('href')));
    expect(tabs).toEqual(['#front', '#bench', '#curve']);
    expect(await isVisible('#front')).toBe(true);
    expect(await isShownNow('#curve')).toBe(false);
    await page.click('nav.tabs a[href="#curve"]');
    expect(await isVisible('#curve')).toBe(true);
    expect(await isShownNow('#front')).toBe(false);
    await page.click('nav.tabs a[href="#bench"]');
    expect(await isVisible('#bench')).toBe(true);
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });

  it("draws each kind's charts with data inside the site", async () => {
    const drawn: Record<string, number> = {};
    for (const frame of page.frames().filter((f) => f !== page.mainFrame())) {
      await frame.waitForFunction(() => document.readyState === 'complete');
      const charts = (await frame.evaluate(
        `[...document.querySelectorAll('canvas[data-chart]')].map((c) => { const ch = Chart.getChart(c); return { kind: c.dataset.chart, points: ch ? ch.data.datasets.reduce((n, d) => n + d.data.filter((p) => p !== null).length, 0) : 0 }; })`,
      )) as { kind: string; points: number }[];
      for (const c of charts) {
        expect(c.points, `${c.kind} chart has data`).toBeGreaterThan(0);
        drawn[c.kind] = (drawn[c.kind] ?? 0) + 1;
      }
    }
    expect(drawn.rps).toBeGreaterThan(0);
    expect(drawn.curve).toBeGreaterThan(0);
  });

  it('keeps every text inside its box at 1280 px, on the front page and each tab', async () => {
    for (const tab of ['#front', '#bench', '#curve']) {
      await page.evaluate((hash) => {
        window.location.hash = hash;
      }, tab);
      await isVisible(tab);
      expect((await page.evaluate(OVERFLOWING)) as string[], tab).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth'), tab).toBeLessThanOrEqual(1280);
    }
    await page.evaluate(() => {
      window.location.hash = '#front';
    });
  });

  it('opens offline: no request off disk, no console or page error', () => {
    expect(offDisk).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it('quotes on its front page the figures of the reports it links to', async () => {
    await page.click('nav.tabs a[href="#front"]');
    const rows = (await page.$$eval('table.headlines tbody tr', (trs) =>
      (trs as HTMLTableRowElement[]).map((tr) => ({
        kind: tr.getAttribute('data-kind') ?? '',
        figure: tr.getAttribute('data-figure') ?? '',
        question: tr.cells[0]?.textContent ?? '',
        href: tr.querySelector('a.source')?.getAttribute('href') ?? '',
      })),
    )) as Row[];
    const bench = rows.filter((r) => r.kind === 'bench');
    expect(bench.length).toBeGreaterThan(0);
    for (const row of bench) {
      // Follow the link to the report it names and find the ratio there.
      const file = resolve(dirname(siteFile), row.href.split('#')[0] ?? '');
      const report = JSON.parse(readFileSync(file, 'utf8')) as Report;
      const [, runtime, scenario] = /^(\w+), (\w+):/.exec(row.question) ?? [];
      const c = report.comparisons.find((x) => x.runtime === runtime && x.scenario === scenario);
      const ratio = row.question.includes('worker pool') ? c?.workerOverSync?.throughput : c?.asyncOverSync?.throughput;
      expect(row.figure, row.question).toBe(formatRatio(ratio));
    }
    const curve = rows.filter((r) => r.kind === 'curve');
    expect(curve.map((r) => r.figure)).toEqual(['40.0', '≥ 420']);
  });
});
