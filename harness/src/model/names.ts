// Scenario, mode, flag and status names, kept apart so every model file (change.ts among them)
// can name them without importing report.ts.
export type ScenarioName = 'hello' | 'hash' | 'file' | 'fib' | 'sleep';
export type Mode = 'baseline' | 'raw' | 'sync' | 'async' | 'worker';
export const MODES: readonly Mode[] = ['baseline', 'raw', 'sync', 'async', 'worker'];
/** added: 'latency-censored', the latency figures cannot be told (stats/littles-law.ts). */
export type Flag = 'client-bound' | 'unstable' | 'count-mismatch' | 'overloaded' | 'latency-censored';
export type CellStatus = 'ok' | 'invalid' | 'failed';
