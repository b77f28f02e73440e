/**
 * One hostile request: a regular expression that backtracks catastrophically (ReDoS, as in
 * path-to-regexp's CVE-2024-45296) on an input crafted for it. `(a+)+$` against n a's and one
 * character that cannot match tries every way to split the a's between the two loops before it
 * fails: 2^n paths, so each step of n doubles the cost. There is no async form: matching is pure
 * computation with no non-blocking API, so the loop or a worker is the whole choice.
 */
export const name = 'regex';
export const description = 'a catastrophically backtracking regular expression on a crafted input: on the loop against a worker';
/** Outside the default plan: `--scenarios catalogue` (pnpm bench:catalogue) or its own name measures it. */
export const group = 'catalogue';

export interface RegexInput {
  /** Number of a's before the character that makes the match fail. */
  n: number;
}

/**
 * Each step of n doubles the work, so the bound is set by the slowest engine (JavaScriptCore in
 * Bun and V8 in Node and Deno backtrack at different speeds) to stay under ~0.5 s of CPU; the
 * default is a few milliseconds.
 */
export const BOUNDS = { n: { min: 1, max: 26, default: 20 } } as const;

/**
 * The worker pool ends a call after this long: it terminates the thread and answers 504, so a
 * hostile request holds a worker for at most this, where on the loop it holds everyone for its
 * whole cost. Far above the default input's few milliseconds, below the worst allowed input.
 */
export const timeoutMs = 250;

// Built once: the pattern is the attack, not its compilation.
const HOSTILE = /^(a+)+$/;

/**
 * One match on a short subject before any request: V8 (Node, Deno) runs a pattern's first match in
 * its bytecode interpreter and compiles it to machine code only from the next, and interpreted
 * backtracking is about seven times slower (n=26: ~7 s against ~1 s on Node 26). So the first
 * request a server gets, were it the worst allowed, costs what the bounds were measured at, as
 * every later one does; the warm-up already did this for the measured runs.
 */
export function setup(): void {
  HOSTILE.test('a!');
}

export function input(query: URLSearchParams): RegexInput {
  const values = query.getAll('n');
  const { min, max } = BOUNDS.n;
  if (values.length === 0) return { n: BOUNDS.n.default };
  const raw = values.length === 1 ? values[0]! : '';
  const n = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= min && n <= max)) {
    const got = values.join(',');
    throw new RangeError(`n must be an integer from ${min} to ${max}, got "${got.length > 40 ? `${got.slice(0, 40)}...` : got}"`);
  }
  return { n };
}

export function sync({ n }: RegexInput): { n: number; length: number; matched: boolean } {
  const subject = `${'a'.repeat(n)}!`;
  return { n, length: subject.length, matched: HOSTILE.test(subject) };
}
