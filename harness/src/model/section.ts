/**
 * The one report model every kind of run ends in: a feature (curve, seeds, browser, versions,
 * calibrate, ab) builds sections from its own report, and the entry point hands them to report/'s
 * renderers; report/ never imports a feature, nor a feature report/. A section renders itself
 * (Markdown, HTML, optionally the console) and names the headline questions it answers, so the
 * results site's front page can quote them and link back.
 */
import type { Report } from './report.ts';
import type { AbComparison } from './ab.ts';
import type { VersionComparison } from './change.ts';
import type { InstructionFigures } from './instructions.ts';

export type SectionKind = 'bench' | 'curve' | 'seeds' | 'browser' | 'versions' | 'calibrate' | 'ab';

/** One question answered on one line, with the figure it rests on and how sure it is. */
export interface Headline {
  /** "What does blocking cost on node (hash)?" */
  question: string;
  /** One line, figure included: "async serves 2.1x the requests/s of sync". */
  answer: string;
  /** The figure alone ("2.1x"), for tables and for tests that compare it with the report. */
  figure: string;
  /** "95 % CI 1.9-2.3x", "no gain (95 % CI 0.97x-1.04x)", a verdict's basis; absent when the report has none. */
  confidence?: string;
  /** Section anchor inside the run's report.html ("scenario-hash"); the site adds the run's folder. */
  anchor: string;
}

export interface ReportSection {
  kind: SectionKind;
  /** Stable id, used as the HTML anchor (no spaces). */
  id: string;
  title: string;
  /** The answer to the run's own question (bench:ab's verdicts): placed right after the title, before the findings. */
  lead?: boolean;
  headlines: Headline[];
  markdown(): string;
  html(): string;
  console?(): string;
}

/**
 * What a feature adds to a bench report, given by the entry point (bench-cli, report-cli) so
 * servers/, load/ and report/ stay below the features: derived fields (the versions comparison) and
 * extra sections for the renderers.
 */
export interface ReportFeatures {
  /** Derived fields computed from the merged report (e.g. versions compared), merged into it. */
  derive?(report: Report): { versions?: VersionComparison; ab?: AbComparison; instructions?: InstructionFigures };
  /** Extra sections for report.md and report.html: after the summary, or right under the title where `lead`. */
  sections?(report: Report): ReportSection[];
}

/** The report with what the features derive from it merged in. */
export function withFeatures(report: Report, features: ReportFeatures | undefined): Report {
  const derived = features?.derive?.(report);
  return derived === undefined ? report : { ...report, ...derived };
}

/** Several features as one: their derived fields merged, their sections in the order given. */
export function combineFeatures(...all: readonly ReportFeatures[]): ReportFeatures {
  return {
    derive: (report) => Object.assign({}, ...all.map((f) => f.derive?.(report) ?? {})),
    sections: (report) => all.flatMap((f) => f.sections?.(report) ?? []),
  };
}
