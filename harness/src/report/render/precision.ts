/**
 * How sure the figures are (issue 22), as text for every renderer: a paired ratio with its
 * interval ("1.05x (0.88 to 1.25, 6 pairs), no measurable difference"), a cell's precision
 * ("±3.1 %"), and the machine's speed over the run ("2 vCPUs, 1.1 to 1.9 cores' worth").
 * Pure: formats what the report holds.
 */
import { holdsOne } from '../paired.ts';
import type { Environment, Ratios, Summary } from '../report-types.ts';
import { formatRatio } from './format.ts';

/** The throughput ratio from paired runs with its interval, or undefined when the runs were not paired. */
export function pairedRatioText(ratios: Ratios): string | undefined {
  const ci = ratios.throughputCi95;
  if (ci === undefined || ratios.pairedThroughput === undefined) return undefined;
  const interval = `${formatRatio(ratios.pairedThroughput)} (${formatRatio(ci[0])} to ${formatRatio(ci[1])}, ${ratios.pairs ?? 0} pairs)`;
  return holdsOne(ci) ? `${interval}, no measurable difference` : interval;
}

/** "±3.1 %": the 95 % interval's half-width as a share of the median; undefined without one. */
export function precisionText(summary: Summary): string | undefined {
  if (summary.halfWidthShare === undefined || summary.intervalNote !== undefined) return undefined;
  return `±${(summary.halfWidthShare * 100).toFixed(1)} %`;
}

/** The environment's machine-speed row, or undefined when no sampler ran. */
export function machineSpeedRow(env: Environment): [string, string] | undefined {
  const speed = env.machineSpeed;
  if (speed === undefined) return undefined;
  const span = speed.coresWorth === undefined ? 'not measured' : `${speed.coresWorth.min.toFixed(1)} to ${speed.coresWorth.max.toFixed(1)} cores' worth during this run`;
  return ['machine speed', `${speed.vcpus} vCPUs, ${span} (sampler${speed.pinned ? ' pinned per CPU' : ''}, every ${speed.intervalMs} ms, ${speed.overheadPercent.toFixed(2)} % of a CPU)`];
}
