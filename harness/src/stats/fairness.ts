import type { Fairness } from '../model/run-checks.ts';

/**
 * How evenly a server served its connections during a run, from the answers it counted per
 * connection. Pure.
 *
 * Jain's fairness index, (sum x)^2 / (n * sum x^2): 1 when every connection got the same
 * number of answers, 1/n when one got them all. Max/min share: the best-served connection's
 * answers over the worst-served one's. A closed-loop client keeps one request in flight per
 * connection, so a server that serves connections in turn scores near 1; one that keeps serving
 * whichever connection it is already reading lets the others wait, which is what a tail
 * latency (p99) far above the mean queueing delay points to.
 */

export function fairness(counts: readonly number[]): Fairness | undefined {
  const served = counts.filter((x) => x > 0);
  if (served.length === 0) return undefined;
  const sum = served.reduce((a, b) => a + b, 0);
  const sumSquares = served.reduce((a, b) => a + b * b, 0);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    connections: served.length,
    jain: round((sum * sum) / (served.length * sumSquares)),
    maxOverMin: round(Math.max(...served) / Math.min(...served)),
  };
}
