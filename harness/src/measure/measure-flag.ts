// `--measure wall|instructions` and the instruction count's own flags, taken out of a bench or
// bench:ab command line before the rest is parsed as a plan.
import { FlagError, numberFlag } from '../cli/flags.ts';
import { type CountSettings, DEFAULT_COUNT } from './instructions.ts';

export const MEASURES = ['wall', 'instructions'] as const;
export type Measure = (typeof MEASURES)[number];

export interface MeasureFlags {
  measure: Measure;
  count: CountSettings;
  rest: string[];
}

const OWN: Record<string, keyof CountSettings | 'measure'> = {
  measure: 'measure',
  'count-requests': 'requests',
  'count-warmup': 'warmupRequests',
  'count-rounds': 'rounds',
  'count-concurrency': 'concurrency',
};

const BOUNDS: Record<keyof CountSettings, [number, number]> = {
  requests: [1, 100_000],
  warmupRequests: [0, 100_000],
  rounds: [1, 50],
  concurrency: [1, 256],
};

/** The measure asked for (wall clock by default) and the count's settings; the count flags need `--measure instructions`. */
export function takeMeasureFlags(argv: readonly string[]): MeasureFlags {
  const rest: string[] = [];
  const given: Partial<Record<keyof typeof OWN, string>> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag = '', inline] = arg.startsWith('--') ? arg.slice(2).split(/=(.*)/s, 2) : [''];
    if (!(flag in OWN)) {
      rest.push(arg);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined || value.startsWith('--')) throw new FlagError(`--${flag} needs a value`);
    given[flag] = value;
  }
  const measure = given.measure ?? 'wall';
  if (!(MEASURES as readonly string[]).includes(measure))
    throw new FlagError(`--measure: unknown "${measure}"; accepted: ${MEASURES.join(', ')}`);
  const count: CountSettings = { ...DEFAULT_COUNT };
  for (const [flag, raw] of Object.entries(given)) {
    const key = OWN[flag];
    if (key === undefined || key === 'measure' || raw === undefined) continue;
    if (measure !== 'instructions') throw new FlagError(`--${flag} counts instructions: it needs --measure instructions`);
    const [min, max] = BOUNDS[key];
    count[key] = numberFlag(flag, raw, min, max, true) ?? count[key];
  }
  return { measure: measure as Measure, count, rest };
}
