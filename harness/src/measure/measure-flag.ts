// `--measure wall|instructions|wall,instructions` and the instruction count's own flags, taken
// out of a bench or bench:ab command line before the rest is parsed as a plan.
import { FlagError, numberFlag } from '../cli/flags.ts';
import { type CountSettings, DEFAULT_COUNT } from './instructions.ts';

export const MEASURES = ['wall', 'instructions'] as const;
/** `both`: the wall-clock plan, then the same cells counted, read side by side in one report. */
export type Measure = (typeof MEASURES)[number] | 'both';

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
  const measure = measureOf(given.measure ?? 'wall');
  const count: CountSettings = { ...DEFAULT_COUNT };
  for (const [flag, raw] of Object.entries(given)) {
    const key = OWN[flag];
    if (key === undefined || key === 'measure' || raw === undefined) continue;
    if (measure === 'wall') throw new FlagError(`--${flag} counts instructions: it needs --measure instructions`);
    const [min, max] = BOUNDS[key];
    count[key] = numberFlag(flag, raw, min, max, true) ?? count[key];
  }
  return { measure, count, rest };
}

/** "wall", "instructions", or both as a list in either order ("wall,instructions", or "both"). */
function measureOf(value: string): Measure {
  const named = value === 'both' ? [...MEASURES] : value.split(',').map((m) => m.trim());
  const unknown = named.find((m) => !(MEASURES as readonly string[]).includes(m));
  if (unknown !== undefined || named.length === 0)
    throw new FlagError(
      `--measure: unknown "${unknown ?? value}"; accepted: ${MEASURES.join(', ')}, or both as a list (wall,instructions)`,
    );
  const set = new Set(named);
  return set.size === 2 ? 'both' : (named[0] as Measure);
}
