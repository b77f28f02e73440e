/**
 * A two-level interval (Kalibera and Jones, "Rigorous benchmarking in reasonable time"): runs
 * within a server process, and processes. An interval from one process's runs does not hold the
 * next process's figure, so a cell's runs are split between processes and its interval carries
 * both variances. Pure.
 *
 * With two processes a cell has one degree of freedom for the between-process variance, whose
 * t is 12.7: an interval that says nothing. The between-process variance is therefore pooled
 * over the cells of one scenario (their processes started the same way and ran the same kind of
 * work), each cell contributing its one-way ANOVA estimate (MSB - MSW) / n0, and the sum is
 * clipped at 0 only after pooling (clipping each cell first would bias it upwards). On logs:
 * variances of rates are relative.
 */
import { mean, tCritical95 } from './stats.ts';

export interface ProcessGroups {
  /** The runs' figures, one array per server process (at least one run each). */
  groups: readonly (readonly number[])[];
}

export interface ProcessComponents {
  /** Grand mean of the logs (processes weighted by their runs). */
  logMean: number;
  /** Within-process variance of the logs (pooled over the cell's processes) and its degrees of freedom. */
  within: number;
  withinDf: number;
  runs: number;
  processes: number;
  /** This cell's ANOVA estimate of the between-process variance of the logs (may be negative). */
  betweenEstimate: number;
  /** The one-level variance of the logs: every run alike, as if from one process (n - 1 denominator). */
  total: number;
}

/** A cell's variance components, or undefined with fewer than 2 processes or any figure not positive. */
export function processComponents({ groups }: ProcessGroups): ProcessComponents | undefined {
  const logs = groups.filter((g) => g.length > 0).map((g) => g.map(Math.log));
  if (logs.length < 2 || logs.some((g) => g.some((x) => !Number.isFinite(x)))) return undefined;
  const all = logs.flat();
  const n = all.length;
  const k = logs.length;
  const grand = mean(all);
  const ssw = logs.reduce((sum, g) => sum + g.reduce((s, x) => s + (x - mean(g)) ** 2, 0), 0);
  const ssb = logs.reduce((sum, g) => sum + g.length * (mean(g) - grand) ** 2, 0);
  const withinDf = n - k;
  const msw = withinDf > 0 ? ssw / withinDf : 0;
  const msb = ssb / (k - 1);
  // n0: the effective group size of an unbalanced one-way layout.
  const n0 = (n - logs.reduce((s, g) => s + g.length ** 2, 0) / n) / (k - 1);
  const total = n > 1 ? all.reduce((sum, x) => sum + (x - grand) ** 2, 0) / (n - 1) : 0;
  return { logMean: grand, within: msw, withinDf, runs: n, processes: k, betweenEstimate: (msb - msw) / n0, total };
}

/** The between-process variance pooled over cells (clipped at 0 after pooling), with its degrees of freedom. */
export function pooledBetween(cells: readonly ProcessComponents[]): { variance: number; df: number } {
  if (cells.length === 0) return { variance: 0, df: 0 };
  const variance = Math.max(0, mean(cells.map((c) => c.betweenEstimate)));
  return { variance, df: cells.reduce((s, c) => s + c.processes - 1, 0) };
}

/**
 * The cell's 95 % interval across runs and processes: half-width on logs
 * sqrt(t_w² · MSW / n + t_b² · σ²_b / k), at least the one-level t interval of all its runs,
 * back-transformed around the grand geometric mean.
 */
export function acrossProcessInterval(cell: ProcessComponents, between: { variance: number; df: number }): [number, number] {
  const tw = cell.withinDf > 0 ? tCritical95(cell.withinDf) : 0;
  const tb = between.df > 0 ? tCritical95(between.df) : 0;
  const twoLevel = Math.sqrt((tw ** 2 * cell.within) / cell.runs + (tb ** 2 * between.variance) / cell.processes);
  // Never narrower than the one-level interval of all the runs: a scenario whose pooled
  // between-process variance clips to 0 must not make a cell whose two processes differ look surer.
  const oneLevel = cell.runs > 1 ? tCritical95(cell.runs - 1) * Math.sqrt(cell.total / cell.runs) : 0;
  const half = Math.max(twoLevel, oneLevel);
  return [Math.exp(cell.logMean - half), Math.exp(cell.logMean + half)];
}
