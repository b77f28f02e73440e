// Scenario and mode names, kept apart from report-types.ts so the types report-types.ts
// imports (change-types.ts) can name them without importing it back.
export type ScenarioName = 'hello' | 'hash' | 'file' | 'fib' | 'sleep';
export type Mode = 'baseline' | 'raw' | 'sync' | 'async' | 'worker';
export const MODES: readonly Mode[] = ['baseline', 'raw', 'sync', 'async', 'worker'];
