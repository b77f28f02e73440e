/**
 * Modes that do not do sync's work per answer (a scenario module's differentWork, recorded in the
 * report's parameters.scenarios): starve's async answers once its read is done and leaves its
 * blockers running, so its requests/s count less work than sync's. The report does not compare
 * such a mode's requests/s with sync's, and says what it compares instead. Pure.
 */
import type { Mode } from '../model/names.ts';
import type { Report } from '../model/report.ts';

export interface DifferentWorkNote {
  why: string;
  compares: string;
}

/** Why `mode` of `scenario` is not sync's work, and what is compared instead; undefined when it is the same work. */
export function differentWork(report: Pick<Report, 'parameters'>, scenario: string, mode: Mode): DifferentWorkNote | undefined {
  const entry = report.parameters.scenarios?.find((s) => s.name === scenario)?.differentWork;
  if (entry === undefined || !entry.modes.includes(mode)) return undefined;
  return { why: entry.why, compares: entry.compares };
}

/** "requests/s not compared: <why>; compared instead: <what>". */
export function notComparedText(note: DifferentWorkNote): string {
  return `requests/s not compared: ${note.why}; compared instead: ${note.compares}`;
}
