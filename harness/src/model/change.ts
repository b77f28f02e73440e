/**
 * The shape of a measured change between two cells (bench:compare's MetricChange and verdict)
 * and of the versions comparison a bench report carries. Types only: they live here, in the
 * report model, because report.json holds them; compare/ and versions/ compute them.
 */
import type { RuntimeName } from '@bench/app';
import type { Mode, ScenarioName } from './names.ts';

export interface WelchTest {
  t: number;
  /** Welch-Satterthwaite degrees of freedom (rarely an integer). */
  df: number;
  /** Two-sided p-value. */
  p: number;
}

export type Verdict = 'regressed' | 'improved' | 'unchanged' | 'not-testable';

export interface MetricChange {
  /** Medians across runs. */
  baseline: number;
  current: number;
  /** current / baseline; null when the baseline is 0 (no relative change exists). */
  ratio: number | null;
  /** ratio - 1, e.g. -0.2 for a 20 % drop. */
  change: number | null;
  /** null when either side has fewer than 2 runs. */
  test: WelchTest | null;
  verdict: Verdict;
}

export interface VersionChange {
  runtime: RuntimeName;
  scenario: ScenarioName;
  mode: Mode;
  baseline: { label: string; version: string };
  current: { label: string; version: string };
  /** Absent when either cell is not ok (then `reason` says which). */
  throughput?: MetricChange;
  p99?: MetricChange;
  probeP99?: MetricChange;
  /** Worst of the three, as bench:compare's cell verdict ("regressed" = the newer is worse). */
  verdict?: Verdict;
  reason?: string;
}

export interface VersionComparison {
  /** Per runtime with more than one installation: the baseline's label. */
  baselines: Partial<Record<RuntimeName, string>>;
  threshold: number;
  alpha: number;
  changes: VersionChange[];
}
