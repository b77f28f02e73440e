/**
 * What the checks on a run found beside its figures (report.json, under a run and its cell): how
 * evenly the connections were served, Little's law, the requests left unanswered at the end, and
 * latency percentiles that count those.
 */

/** How evenly a server served its connections in a run (stats/fairness.ts computes it). */
export interface Fairness {
  /** Connections that got at least one answer. */
  connections: number;
  jain: number;
  maxOverMin: number;
}

/** added: Little's law check (stats/littles-law.ts). All in ms; ratio = measured / expected. */
export interface LittlesLaw {
  expectedMeanMs: number;
  measuredMeanMs: number;
  ratio: number;
}

/**
 * added: requests sent but unanswered at a run's end. Ages are from each connection's
 * last send to the run's end (known in-process; not with autocannon worker threads).
 */
export interface Unanswered {
  count: number;
  agesKnown: boolean;
  medianAgeMs?: number;
  oldestMs?: number;
}

/** added: percentiles over answered latencies and unanswered ages together. */
export interface CensoredLatency {
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
  /** The percentiles that are lower bounds: some unanswered request was at least that old. */
  lowerBound: ('p50' | 'p90' | 'p99' | 'p999' | 'max')[];
}
