/**
 * The kinds of run the results site shows, composed here above the features (report/ knows
 * none of them): how each is recognised and which section it becomes. Entry points call
 * rebuildSite() at the end of every bench command; the docs generator calls siteMarkdown().
 */
import { relative, resolve } from 'node:path';
import { benchSection } from './report/bench-section.ts';
import { loadChartAssets, type ChartAssets } from './present/html-assets.ts';
import type { Report } from './model/report.ts';
import { writeSite, siteMarkdownOf, type BuiltSite, type SiteMarkdown } from './report/site.ts';
import type { SiteKind } from './report/site-model.ts';
import { RESULTS_ROOT } from './system/paths.ts';
import { browserSection, isBrowserReport, type BrowserReport } from './browser/browser-section.ts';
import { calibrateSection, isCalibration } from './calibrate/calibrate-section.ts';
import type { CalibrationResult } from './calibrate/calibration-math.ts';
import { curveSection, isCurveReport } from './curve/curve-section.ts';
import type { CurveReport } from './curve/curve-types.ts';
import { isSeedsReport, seedsSection } from './seeds/seeds-section.ts';
import type { SeedsReport } from './seeds/render.ts';
import { versionFeatures, versionsSection } from './versions/versions-section.ts';
import { sweepFeatures } from './report/sweep-section.ts';
import { abFeatures, keepsRunDetails } from './ab/ab-section.ts';
import { withFeatures } from './model/section.ts';
import { instructionFeatures } from './measure/instruction-section.ts';

/**
 * A bench report read back from its file, an A/B report's verdicts judged again from its runs by
 * the current rule: a report written under an earlier rule reads as one written now would. One
 * that kept no runs' details (a trimmed sample) keeps the verdicts it stored: there is nothing to
 * judge them from.
 */
export function judgedAgain(report: Report): Report {
  return keepsRunDetails(report) ? withFeatures(report, abFeatures) : report;
}

export { RESULTS_ROOT };
export const SITE_DIR = resolve(RESULTS_ROOT, 'site');

/** Chart.js is read once per site build, and only when a page with charts is drawn. */
let assets: ChartAssets | undefined;
const chartAssets = (): ChartAssets => (assets ??= loadChartAssets());

const isBenchReport = (json: Record<string, unknown>): boolean =>
  json.kind === undefined && Array.isArray(json.results) && Array.isArray(json.runtimes) && Array.isArray(json.comparisons);

/** A bench report with several versions of a runtime: the versions tab; its front-page lines are the versions compared. */
const hasVersions = (json: Record<string, unknown>): boolean => typeof json.versions === 'object' && json.versions !== null;

/**
 * A bench:ab report: a tab of its own. Under "Sync vs async" its lanes (node-A, node-B, ...)
 * would answer a question the run was not asked, and, being the newest, push the plain bench
 * run off the front page.
 */
const isAbReport = (json: Record<string, unknown>): boolean => typeof json.ab === 'object' && json.ab !== null;

export const SITE_KINDS: readonly SiteKind[] = [
  {
    kind: 'bench',
    title: 'Sync vs async (bench)',
    file: 'report.json',
    accepts: (json) => isBenchReport(json) && !hasVersions(json) && !isAbReport(json),
    section: (json) => benchSection(json as unknown as Report, chartAssets, sweepFeatures.sections?.(json as unknown as Report) ?? []),
  },
  {
    kind: 'ab',
    title: 'A/B (bench:ab)',
    file: 'report.json',
    accepts: (json) => isBenchReport(json) && isAbReport(json),
    section: (json) => {
      const report = judgedAgain(json as unknown as Report);
      // Led by its verdicts (by both measures where both were measured); its front-page lines are
      // the verdicts, with no sync-vs-async pictures of its lanes.
      const ab = [...(abFeatures.sections?.(report) ?? []), ...(instructionFeatures.sections?.(report) ?? [])];
      const { answers: _lanes, ...whole } = benchSection(report, chartAssets, [...ab, ...(sweepFeatures.sections?.(report) ?? [])]);
      return { ...whole, kind: 'ab', id: 'ab', title: 'A/B', headlines: ab.flatMap((section) => section.headlines) };
    },
  },
  {
    kind: 'curve',
    title: 'Load curves (bench:curve)',
    file: 'report.json',
    accepts: isCurveReport,
    section: (json) => curveSection(json as unknown as CurveReport, chartAssets),
  },
  {
    kind: 'versions',
    title: 'Runtime versions (bench --runtimes node@22,node@24)',
    file: 'report.json',
    accepts: (json) => isBenchReport(json) && hasVersions(json) && !isAbReport(json),
    section: (json) => {
      const report = json as unknown as Report;
      const extra = versionFeatures.sections?.(report) ?? [];
      const whole = benchSection(report, chartAssets, extra);
      return { ...whole, kind: 'versions', id: 'versions', title: 'Runtime versions', headlines: versionsSection(report)?.headlines ?? [] };
    },
  },
  {
    kind: 'seeds',
    title: 'Seed claims (bench:seeds)',
    file: 'report.json',
    accepts: isSeedsReport,
    section: (json) => seedsSection(json as unknown as SeedsReport),
  },
  {
    kind: 'browser',
    title: 'Browser study (bench:browser)',
    file: 'report.json',
    accepts: isBrowserReport,
    section: (json) => browserSection(json as unknown as BrowserReport),
  },
  {
    kind: 'calibrate',
    title: 'Generator ceiling (bench:calibrate)',
    file: 'calibration.json',
    accepts: isCalibration,
    section: (json) => calibrateSection(json as unknown as CalibrationResult),
  },
];

/** A report's whole HTML page, as the results site draws its kind (the docs' pictures are taken from it). */
export function pageOf(json: Record<string, unknown>, dir: string): string {
  const kind = SITE_KINDS.find((k) => k.accepts(json));
  if (kind === undefined) throw new Error(`${dir}: a report of no known kind`);
  return kind.section(json, dir).html();
}

/** Builds the site from `roots` (default: every run under data/results) into data/results/site. */
export function rebuildSite(roots: readonly string[] = [RESULTS_ROOT], siteDir: string = SITE_DIR): BuiltSite {
  return writeSite(roots, SITE_KINDS, siteDir);
}

/**
 * For the docs generator: the front page's Markdown and each kind's newest report as Markdown,
 * from the run folders (or results folders) given; links relative to `linkBase`.
 */
export function siteMarkdown(dirs: readonly string[], linkBase: string = SITE_DIR): SiteMarkdown {
  return siteMarkdownOf(dirs, SITE_KINDS, linkBase);
}

/**
 * The last lines of every bench command: the site rebuilt with this run in it (a run written
 * with --out outside data/results is added to it), its path beside the run's own report. A site
 * that cannot be built never fails the run that measured.
 */
export function siteLines(runDir?: string): string {
  try {
    const extra = runDir === undefined || !relative(RESULTS_ROOT, resolve(runDir)).startsWith('..') ? [] : [resolve(runDir)];
    const site = rebuildSite([RESULTS_ROOT, ...extra]);
    const skipped = site.input.skipped.length === 0 ? '' : ` (${site.input.skipped.length} skipped: listed on its front page)`;
    return `site:   ${site.html}${skipped}\n        ${site.markdown}`;
  } catch (error) {
    return `site:   not rebuilt: ${(error as Error).message.split('\n')[0]}`;
  }
}
