/**
 * The docs' pictures, drawn from the committed samples (docs/results/<kind>/report.json) in the
 * system's headless Chromium, so a picture shows the same run as the figures beside it and is
 * redrawn with them (`pnpm docs:results --pictures`), never a screenshot of some other day.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'puppeteer-core';
import { launch, missingReason } from '../browser/driver.ts';

export interface Picture {
  /** Repository-relative PNG path. */
  file: string;
  /** Repository-relative sample folder holding report.json. */
  sample: string;
  /** The element drawn: its box is the picture. */
  selector: string;
  /** Page width in CSS pixels (the charts size themselves to it). */
  width: number;
  /** Only the first this many children of the element (a grid's first row, say). */
  firstChildren?: number;
}

export const PICTURES: readonly Picture[] = [
  { file: 'docs/bench-report.png', sample: 'docs/results/bench', selector: '#scenario-sleep .charts', width: 1100 },
  { file: 'docs/curve-fib.png', sample: 'docs/results/curve', selector: '#curve-fib figure', width: 1100 },
  // Chromium, plain fib: time per call and the 10 ms timer's lateness, per mode.
  { file: 'docs/browser-study.png', sample: 'docs/results/browser', selector: '.grid', width: 1200, firstChildren: 2 },
];

/** Runs in the page: true once every chart canvas the page marked has a Chart.js chart with data. */
const CHARTS_DRAWN = `(() => {
  const canvases = [...document.querySelectorAll('canvas[data-chart]')];
  return typeof Chart !== 'undefined' && canvases.length > 0 &&
    canvases.every((c) => { const chart = Chart.getChart(c); return chart !== undefined && chart.data.datasets.length > 0; });
})()`;

/** Runs in the page: the box of the element, or of its first `children` children together. */
function boxOf(selector: string, children: number): { x: number; y: number; width: number; height: number } | undefined {
  const element = document.querySelector(selector);
  if (element === null) return undefined;
  const parts = children > 0 ? Array.from(element.children).slice(0, children) : [element];
  const rects = parts.map((p) => p.getBoundingClientRect());
  const x = Math.min(...rects.map((r) => r.left)) + window.scrollX;
  const y = Math.min(...rects.map((r) => r.top)) + window.scrollY;
  const right = Math.max(...rects.map((r) => r.right)) + window.scrollX;
  const bottom = Math.max(...rects.map((r) => r.bottom)) + window.scrollY;
  return { x, y, width: right - x, height: bottom - y };
}

/**
 * Draws each picture from its sample. `pageOf` turns a sample's report.json into its whole HTML
 * page (the entry point passes the results site's renderers). Returns the files written; throws
 * with the reason when Chromium is missing or a page does not draw. Given a `browser`, draws in it
 * and leaves it open (the tests' Chromium, shared between their files); else launches its own.
 */
export async function drawPictures(
  root: string,
  pageOf: (json: Record<string, unknown>, dir: string) => string,
  pictures: readonly Picture[] = PICTURES,
  browser?: Browser,
): Promise<string[]> {
  const missing = missingReason('chromium');
  if (missing !== undefined) throw new Error(`cannot draw the pictures: ${missing}`);
  const work = mkdtempSync(join(tmpdir(), 'docs-pictures-'));
  // A browser lent by the caller is the caller's to close.
  const chromium = browser === undefined ? await launch('chromium') : { browser, close: async () => undefined };
  const written: string[] = [];
  try {
    for (const picture of pictures) {
      const dir = resolve(root, picture.sample);
      const json = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Record<string, unknown>;
      const htmlFile = join(work, `${written.length}.html`);
      writeFileSync(htmlFile, pageOf(json, dir));
      const page = await chromium.browser.newPage();
      try {
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(String(error)));
        page.on('console', (message) => {
          if (message.type() === 'error') errors.push(message.text());
        });
        await page.setViewport({ width: picture.width, height: 900, deviceScaleFactor: 1 });
        // Animations off: the picture is the final state, not a frame of the chart growing.
        await page.emulateMediaFeatures([{ name: 'prefers-reduced-motion', value: 'reduce' }]);
        await page.goto(pathToFileURL(htmlFile).href, { waitUntil: 'load' });
        await page.waitForFunction(CHARTS_DRAWN, { timeout: 15_000 });
        await page.evaluate(
          'Chart.helpers && Object.values(Chart.instances).forEach((c) => { c.options.animation = false; c.update("none"); })',
        );
        if (errors.length > 0) throw new Error(`${picture.sample}: the page reported errors: ${errors.join('; ')}`);
        const box = await page.evaluate(boxOf, picture.selector, picture.firstChildren ?? 0);
        if (box === undefined) throw new Error(`${picture.sample}: no ${picture.selector} on its page`);
        await page.screenshot({ path: resolve(root, picture.file) as `${string}.png`, clip: box, captureBeyondViewport: true });
      } finally {
        // A page that did not draw too: a lent browser stays open after it.
        await page.close();
      }
      written.push(picture.file);
    }
  } finally {
    await chromium.close();
    rmSync(work, { recursive: true, force: true });
  }
  return written;
}
