/**
 * The results site's model: every run found under data/results (or the folders given) becomes
 * a SiteRun holding its kind's section; the site shows the newest run of each kind and lists the
 * older ones. The kinds themselves (how to recognise a curve report, how to build its section)
 * come from the entry points (site-kinds.ts): report/ knows none of them.
 */
import type { Environment } from '../model/environment.ts';
import type { Answers } from './answers.ts';
import type { ReportSection, SectionKind } from '../model/section.ts';

/** A run's section on the site: a bench run's also draws the answers of the front page. */
export interface SiteSection extends ReportSection {
  /** The answers drawn on the site's front page (a picture per question) and the findings; bench runs only. */
  answers?(): Answers;
}

export interface SiteKind {
  kind: SectionKind;
  /** Tab title: "Load curves (bench:curve)". */
  title: string;
  /** The JSON file a run of this kind leaves in its folder. */
  file: 'report.json' | 'calibration.json';
  /** Whether this parsed JSON is a run of this kind (its `kind` field, or its shape). */
  accepts(json: Record<string, unknown>): boolean;
  /** The run's section; throws (one line) when the JSON is of this kind but cannot be shown. */
  section(json: Record<string, unknown>, dir: string): SiteSection;
}

export interface SiteRun {
  kind: SectionKind;
  /** The run's folder and the JSON read from it. */
  dir: string;
  file: string;
  createdAt: string;
  status: string;
  commit?: string;
  dirty?: boolean;
  /** "AMD EPYC 7B13 (2 CPUs), Debian GNU/Linux 12": environment.cpu.model and os. */
  machine: string;
  /** The run's own page: report.html when the folder has one, else its JSON. */
  page: string;
  section: SiteSection;
}

export interface SkippedRun {
  path: string;
  reason: string;
}

export interface SiteInput {
  runs: SiteRun[];
  skipped: SkippedRun[];
}

export function machineOf(environment: Partial<Environment> | undefined): string {
  if (environment === undefined) return 'unknown machine';
  const cpu = environment.cpu === undefined ? '' : `${environment.cpu.model} (${environment.cpu.count} CPUs)`;
  return [cpu, environment.os ?? ''].filter((x) => x !== '').join(', ') || 'unknown machine';
}

/** Newest first (ISO timestamps sort as text; the folder breaks ties the same way). */
export function byNewest(a: SiteRun, b: SiteRun): number {
  return b.createdAt.localeCompare(a.createdAt) || b.dir.localeCompare(a.dir);
}

/** Per kind, in the kinds' order, its runs newest first; the first of each is the one the site shows. */
export function runsByKind(runs: readonly SiteRun[], kinds: readonly Pick<SiteKind, 'kind'>[]): Map<SiteKind['kind'], SiteRun[]> {
  const out = new Map<SiteKind['kind'], SiteRun[]>();
  for (const { kind } of kinds) {
    const mine = runs.filter((r) => r.kind === kind).sort(byNewest);
    if (mine.length > 0) out.set(kind, mine);
  }
  return out;
}

/** The newest run of each kind. */
export function newestOfKind(runs: readonly SiteRun[], kinds: readonly Pick<SiteKind, 'kind'>[]): SiteRun[] {
  return [...runsByKind(runs, kinds).values()].map((list) => list[0]).filter((r): r is SiteRun => r !== undefined);
}
