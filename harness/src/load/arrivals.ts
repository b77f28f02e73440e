/**
 * When an open-loop step's requests are due: offsets in ms from the step's start. Constant
 * spacing by default; Poisson arrivals (exponential gaps) from a seeded generator, so the same
 * seed gives the same schedule on every run and a test can replay the exact arrivals.
 */
export type Arrivals = 'constant' | 'poisson';

/** mulberry32: a small, well-known 32-bit PRNG; enough for arrival times, and seedable. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The seed of one step's schedule, from the run's --seed and the step's rate. With the run's seed
 * for every step, every Poisson step was the same draw of gaps scaled to its rate: a draw with
 * fewer bursts than chance gives (or more) leaned every step of a search, and every cell, the
 * same way. Mixed with the rate, steps at different rates draw independently, while one rate
 * still gives one schedule, on every runtime and every run with that seed (so runtimes offered
 * the same rate meet the same arrivals).
 */
export function stepSeed(seed: number, ratePerSec: number): number {
  // FNV-1a over "seed:rate": deterministic, and neighbouring rates land far apart.
  let h = 0x811c9dc5;
  for (const ch of `${seed >>> 0}:${ratePerSec}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

/** Due times (ms from start) of every request in a step of `durationSec` at `ratePerSec`. */
export function arrivalOffsets(ratePerSec: number, durationSec: number, arrivals: Arrivals, seed: number): number[] {
  const out: number[] = [];
  eachArrival(ratePerSec, durationSec, arrivals, seed, (t) => out.push(t));
  return out;
}

/**
 * arrivalOffsets' due times handed to `visit` one by one, in order, without the array: a
 * simulation over a long schedule (curve/ladder.ts's capacity bisection, 100,000 arrivals a
 * probe) keeps only what it counts.
 */
export function eachArrival(
  ratePerSec: number,
  durationSec: number,
  arrivals: Arrivals,
  seed: number,
  visit: (dueMs: number) => void,
): void {
  const endMs = durationSec * 1000;
  const periodMs = 1000 / ratePerSec;
  if (arrivals === 'constant') {
    for (let i = 0; i * periodMs < endMs; i++) visit(i * periodMs);
    return;
  }
  const random = seededRandom(seed);
  // The first request at 0, like the constant schedule, so both steps start with a send.
  for (let t = 0; t < endMs; t += -Math.log(1 - random()) * periodMs) visit(t);
}
