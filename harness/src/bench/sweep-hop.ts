/**
 * The hop's own cost in a --sweep: what sending the input to a worker thread and the answer back
 * adds to a request, apart from the work. Requests go one at a time on one connection, sync and
 * worker alternating (ABBA, so neither always follows the other), after the cell's measured runs
 * on the same warm server; each pair's worker latency minus its sync latency is the hop plus
 * noise, and the median of those differences, with its distribution-free interval, is the figure.
 * One at a time, so no request queues behind another: the difference is the hop, not a queue.
 * docs/bench.md ("Where offloading starts to pay") says why it is timed from outside.
 */
import type { CellResult, HopCost } from '../model/cell.ts';
import type { CellSpec } from '../servers/scenarios.ts';
import { MIN_MEDIAN_VALUES, medianWithInterval } from '../stats/median-interval.ts';
import type { Plan } from './plan.ts';
import { laneName, type Lane } from './lanes.ts';

export interface HopOptions {
  /** Most pairs to time. */
  pairs: number;
  /** Time allowed for the pairs (the warm-up pair aside): fewer pairs when the work is slow. */
  budgetMs: number;
  timeoutMs: number;
  signal: AbortSignal;
}

/** Up to 200 pairs in about a run's length (at least a second), per value and runtime. */
export function hopOptions(
  plan: Pick<Plan, 'durationSec' | 'timeoutSec'>,
  signal: AbortSignal,
  log: (line: string) => void,
): HopOptions & { log(line: string): void } {
  return { pairs: 200, budgetMs: Math.max(1, plan.durationSec) * 1000, timeoutMs: plan.timeoutSec * 1000, signal, log };
}

/** One request's latency in ms, answer read to the end; throws on anything but a 200. */
async function timed(url: string, timeoutMs: number, signal: AbortSignal): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) });
  await res.arrayBuffer();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return ms;
}

/** The worker-minus-sync differences of up to `pairs` alternating pairs, within the budget. */
export async function hopDifferences(baseUrl: string, syncPath: string, workerPath: string, opts: HopOptions): Promise<number[]> {
  const one = (path: string) => timed(baseUrl + path, opts.timeoutMs, opts.signal);
  // One pair untimed: the connection opened, both routes' code paths taken once more.
  await one(syncPath);
  await one(workerPath);
  const differences: number[] = [];
  const deadline = performance.now() + opts.budgetMs;
  for (let i = 0; i < opts.pairs && (i < MIN_MEDIAN_VALUES || performance.now() < deadline); i++) {
    if (i % 2 === 0) {
      const sync = await one(syncPath);
      differences.push((await one(workerPath)) - sync);
    } else {
      const worker = await one(workerPath);
      differences.push(worker - (await one(syncPath)));
    }
  }
  return differences;
}

/**
 * The group's worker cells with the hop timed on each lane's server, when the group is a sweep's
 * (a sync and a worker cell of one query). A lane whose server is gone, or whose requests fail,
 * keeps its cells as they were: the section then says the hop was not measured.
 */
export async function withHopCosts(
  results: readonly CellResult[],
  cells: readonly CellSpec[],
  lanes: readonly Lane[],
  opts: HopOptions & { log(line: string): void },
): Promise<CellResult[]> {
  const sync = cells.find((c) => c.mode === 'sync');
  const worker = cells.find((c) => c.mode === 'worker');
  if (sync?.query === undefined || worker === undefined) return [...results];
  const hops = new Map<Lane, HopCost>();
  for (const lane of lanes) {
    const server = lane.servers.get(worker.server);
    if (server === undefined || !server.alive || opts.signal.aborted) continue;
    try {
      const differences = await hopDifferences(server.url, sync.path, worker.path, opts);
      hops.set(lane, { ...medianWithInterval(differences), pairs: differences.length });
    } catch (error) {
      if (opts.signal.aborted) break;
      opts.log(`bench: ${laneName(lane)} ${worker.path}: hop not measured: ${(error as Error).message}`);
    }
  }
  return results.map((cell) => {
    if (cell.mode !== 'worker' || cell.status === 'failed') return cell;
    const hit = [...hops].find(
      ([lane]) => lane.spec.name === cell.runtime && lane.spec.label === cell.runtimeLabel && lane.processes === cell.processes,
    );
    return hit === undefined ? cell : { ...cell, hopMs: hit[1] };
  });
}
