import { BadRequest } from './errors.ts';

interface Bounds {
  min: number;
  max: number;
}

/**
 * Reads one integer query parameter. Rejects repeats, empties, floats, NaN, exponents and
 * anything outside the bounds, so no odd value reaches a workload.
 */
export function intParam(values: string[] | undefined, name: string, fallback: number, bounds: Bounds): number {
  if (values === undefined || values.length === 0) return fallback;
  if (values.length > 1) throw new BadRequest(`${name} given ${values.length} times; give it once`);
  const raw = values[0] ?? '';
  if (!/^-?\d{1,12}$/.test(raw)) {
    throw new BadRequest(`${name} must be an integer from ${bounds.min} to ${bounds.max}, got "${clip(raw)}"`);
  }
  const value = Number(raw);
  if (value < bounds.min || value > bounds.max) {
    throw new BadRequest(`${name} must be from ${bounds.min} to ${bounds.max}, got ${value}`);
  }
  return value;
}

export function choiceParam<T extends string>(values: string[] | undefined, name: string, fallback: T, choices: readonly T[]): T {
  if (values === undefined || values.length === 0) return fallback;
  if (values.length > 1) throw new BadRequest(`${name} given ${values.length} times; give it once`);
  const raw = values[0] ?? '';
  const found = choices.find((c) => c === raw);
  if (found === undefined) {
    throw new BadRequest(`${name} must be one of ${choices.join(', ')}, got "${clip(raw)}"`);
  }
  return found;
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}...` : s;
}
