// Scenario, mode, flag and status names, kept apart so every model file (change.ts among them)
// can name them without importing report.ts.
/**
 * A scenario's name: hello (the Hono-against-raw baseline) or a scenario module's `name`, built-in
 * or the user's own (--scenario-file), so any string of [a-z][a-z0-9-]*.
 */
export type ScenarioName = string;
export type Mode = 'baseline' | 'raw' | 'sync' | 'async' | 'worker';
/** Every mode, in the order reports list them: the references first, then sync before what is meant to beat it. */
export const MODES: readonly Mode[] = ['baseline', 'raw', 'sync', 'async', 'worker'];
/**
 * Scenario order of reports written before the plan's order was recorded (parameters.scenarios):
 * cheapest first, then the blocking workloads. Newer reports carry their own order.
 */
export const SCENARIO_ORDER: readonly ScenarioName[] = ['hello', 'hash', 'file', 'fib', 'sleep'];
/** added: 'latency-censored', the latency figures cannot be told (stats/littles-law.ts). */
/** added: 'shared-host', other processes used the CPU during a run (system/host-cpu.ts). */
export type Flag = 'client-bound' | 'unstable' | 'count-mismatch' | 'overloaded' | 'latency-censored' | 'shared-host';
export type CellStatus = 'ok' | 'invalid' | 'failed';

/** A count with its noun: "1 run", "3 runs". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
