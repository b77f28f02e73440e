/**
 * The calibration's figures and judgements: how close autocannon comes to wrk on one server,
 * which autocannon setting comes closest, and what that means for the bench. Pure functions and
 * the shape of calibration.json; no I/O.
 */
import type { RuntimeName, ServerKind } from '@bench/app';
import { cv, median } from '../stats/stats.ts';
import { CEILING_OK_RATIO, UNSTABLE_CV } from '../model/thresholds.ts';
import type { OpenLoopCeiling } from './open-loop-ceiling.ts';

/** One way of running autocannon: total connections, and worker threads (0 = in-process). */
export interface AutocannonSetting {
  connections: number;
  workers: number;
}

export interface ClientFigures {
  /** Requests/s of each run, in the order run. */
  runs: number[];
  median: number;
  /** Coefficient of variation of the runs: above UNSTABLE_CV the machine was likely busy with something else. */
  cv: number;
  /** Errors, timeouts and non-2xx answers summed over the runs: a figure with any is suspect. */
  failedAnswers: number;
  /**
   * Median over the runs of the server process's CPU (100 = one core) while this client loaded
   * it; null where it could not be read (a server on another host: no /proc across hosts).
   */
  serverCpuPercent: number | null;
}

export interface SettingResult {
  setting: AutocannonSetting;
  /** clientCpuPercent: median over the runs of this process's CPU (all its threads; 100 = one core). */
  autocannon: ClientFigures & { clientCpuPercent: number };
  /** The wrk runs alternated with this setting's runs; null without wrk. */
  wrk: ClientFigures | null;
  /** Autocannon median over wrk median; null without wrk or when wrk got nothing. */
  ratio: number | null;
}

export interface Verdict {
  /** Whether autocannon reaches CEILING_OK_RATIO of wrk; null when there is no wrk figure. */
  ceilingOk: boolean | null;
  /** Either client's runs varied more than UNSTABLE_CV: the ratio may be the machine's doing. */
  unstable: boolean;
  text: string;
}

export interface ServerCalibration {
  runtime: RuntimeName;
  server: ServerKind;
  /** Runtime version; "" when the runtime is not installed. */
  version: string;
  status: 'ok' | 'skipped' | 'failed';
  reason?: string;
  settings: SettingResult[];
  best: (SettingResult & Verdict) | null;
  /**
   * bench:curve's open-loop generator on the same server after autocannon and wrk: the highest
   * rate it held on schedule (open-loop-ceiling.ts). Absent when it was not measured.
   */
  openLoop?: OpenLoopCeiling;
}

export interface CalibrationParameters {
  path: string;
  /** What was asked, and what ran: wrk only runs whole seconds, and both clients run alike. */
  requestedDurationSec: number;
  durationSec: number;
  warmupSec: number;
  runs: number;
  settings: AutocannonSetting[];
  wrkThreads: number;
  wrkConnections: number;
  ceilingOkRatio: number;
}

export interface CalibrationResult {
  schemaVersion: 1;
  createdAt: string;
  status: 'complete' | 'interrupted';
  parameters: CalibrationParameters;
  wrk: { available: boolean; binary?: string; version?: string; reason?: string };
  autocannon: { version: string };
  results: ServerCalibration[];
  /** 1, 5 and 15 minute load averages before and after: a busy machine shows here first. */
  loadAverage: { start: number[]; end: number[] };
  /** The setting with the highest median ratio over every runtime and server measured. */
  closest: { setting: AutocannonSetting; medianRatio: number } | null;
}

/** Medians of both clients' runs and their ratio (median over median, not a median of ratios). */
export function ratioSummary(
  autocannonRuns: readonly number[],
  wrkRuns: readonly number[],
): { autocannonMedian: number; wrkMedian: number | null; ratio: number | null } {
  const autocannonMedian = median(autocannonRuns);
  if (wrkRuns.length === 0) return { autocannonMedian, wrkMedian: null, ratio: null };
  const wrkMedian = median(wrkRuns);
  return { autocannonMedian, wrkMedian, ratio: wrkMedian > 0 ? autocannonMedian / wrkMedian : null };
}

/** Every combination of connections and workers, in-process first: the order they run in. */
export function settingsGrid(connections: readonly number[], workers: readonly number[]): AutocannonSetting[] {
  return workers.flatMap((w) => connections.map((c) => ({ connections: c, workers: w })));
}

/**
 * The setting that got autocannon closest to the ceiling: the highest ratio when wrk ran (each
 * ratio is against wrk runs alternated with it, so a machine slowing down midway does not favour
 * the settings measured first), else the highest autocannon median. Ties go to the simpler
 * setting: fewer workers, then fewer connections.
 */
export function bestSetting(settings: readonly SettingResult[]): SettingResult | undefined {
  const byRatio = settings.every((s) => s.ratio !== null);
  const score = (s: SettingResult) => (byRatio ? (s.ratio ?? 0) : s.autocannon.median);
  let best: SettingResult | undefined;
  for (const candidate of settings) {
    if (
      best === undefined ||
      score(candidate) > score(best) ||
      (score(candidate) === score(best) && simpler(candidate.setting, best.setting))
    ) {
      best = candidate;
    }
  }
  return best;
}

function simpler(a: AutocannonSetting, b: AutocannonSetting): boolean {
  return a.workers !== b.workers ? a.workers < b.workers : a.connections < b.connections;
}

export function verdict(ratio: number | null, noRatioReason = 'no wrk figure', unstable = false): Verdict {
  const note = unstable ? ' (unstable runs: rerun on a quieter machine)' : '';
  if (ratio === null) return { ceilingOk: null, unstable, text: `ceiling unknown: ${noRatioReason}${note}` };
  if (ratio >= CEILING_OK_RATIO) return { ceilingOk: true, unstable, text: `>= ${CEILING_OK_RATIO} of wrk${note}` };
  return { ceilingOk: false, unstable, text: `client-bound: autocannon reaches ${ratio.toFixed(2)} of wrk${note}` };
}

/** The best setting of one server with its verdict, or null when nothing was measured. */
export function judgeServer(settings: readonly SettingResult[], noRatioReason?: string): (SettingResult & Verdict) | null {
  const best = bestSetting(settings);
  return best === undefined ? null : { ...best, ...verdict(best.ratio, noRatioReason, isUnstable(best)) };
}

/**
 * Across every runtime and server: the setting whose median ratio is highest, so one setting
 * can be recommended for the bench. Null when no ratio was measured.
 */
export function closestSetting(results: readonly ServerCalibration[]): CalibrationResult['closest'] {
  const ratios = new Map<string, { setting: AutocannonSetting; ratios: number[] }>();
  for (const s of results.flatMap((r) => r.settings)) {
    if (s.ratio === null) continue;
    const key = settingLabel(s.setting);
    const entry = ratios.get(key) ?? { setting: s.setting, ratios: [] };
    entry.ratios.push(s.ratio);
    ratios.set(key, entry);
  }
  let closest: CalibrationResult['closest'] = null;
  for (const { setting, ratios: rs } of ratios.values()) {
    const m = median(rs);
    if (closest === null || m > closest.medianRatio || (m === closest.medianRatio && simpler(setting, closest.setting))) {
      closest = { setting, medianRatio: m };
    }
  }
  return closest;
}

/** The runs' figures: median for the ratio, CV to tell a disturbed measurement. */
export function clientFigures(runs: readonly number[]): { runs: number[]; median: number; cv: number } {
  return { runs: [...runs], median: median(runs), cv: cv(runs) };
}

/** Whether either client's runs of this setting varied more than the bench tolerates in a cell. */
export function isUnstable(s: SettingResult): boolean {
  return s.autocannon.cv > UNSTABLE_CV || (s.wrk !== null && s.wrk.cv > UNSTABLE_CV);
}

/** "50 conn, in-process" / "50 conn, 2 workers". */
export function settingLabel(setting: AutocannonSetting): string {
  const where = setting.workers === 0 ? 'in-process' : `${setting.workers} worker${setting.workers === 1 ? '' : 's'}`;
  return `${setting.connections} conn, ${where}`;
}
