/**
 * The thread pool starved. "Async" file reads and crypto do not run on the event loop but on a
 * pool of threads the runtime keeps (libuv's four by default in Node, Bun's WorkPool, Deno's
 * blocking pool that grows on demand), and they queue for it. Here the bystander is not the
 * loop but a pool user: a small fs.promises.readFile issued right after `blockers` long
 * crypto.pbkdf2 calls. Where the pool has no more threads than blockers, the read waits for a
 * blocker to finish; where it grows, the read goes straight through.
 *
 * The answer is the file's size and checksum, the same in every mode, so the request's own
 * latency is the measurement: async answers as soon as the read is done and leaves the blockers
 * running on the pool (they are what the next reads queue behind, as other requests' pool work
 * would be); sync runs the blockers and the read one after another on the calling thread, and
 * worker does that in a worker. Under load the blockers left behind pile up at most
 * connections x blockers deep, each bounded below.
 */
import { pbkdf2, pbkdf2Sync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';

export const name = 'starve';
export const description = 'the thread pool starved: a small fs.promises.readFile queued behind long crypto.pbkdf2 calls';
/** Outside the default plan: `--scenarios catalogue` (pnpm bench:catalogue) or its own name measures it. */
export const group = 'catalogue';
/** Async's answer leaves its blockers running (see the top): its requests/s are not sync's work. */
export const differentWork = {
  modes: ['async'],
  why: 'async answers once its read is done and leaves its pbkdf2 blockers running, while sync and worker run them before answering',
  compares: "what the read waits: the request's p99 and a bystander's",
} as const;

export interface StarveInput {
  /** Long pool calls started before the read. */
  blockers: number;
  /** SHA-256 iterations of each blocker. */
  iterations: number;
}

/**
 * Four blockers by default, libuv's default pool size (the size Node runs with on 2 CPUs here).
 * Together the blockers may cost at most BLOCKER_BUDGET iterations, ~0.5 s of CPU on the
 * slowest runtime, whatever their number.
 */
export const BOUNDS = {
  blockers: { min: 0, max: 16, default: 4 },
  iterations: { min: 1, max: 200_000, default: 5000 },
} as const;
export const BLOCKER_BUDGET = 400_000;

/**
 * The file read: this module's own source, a few KB that is there wherever the module is, with
 * no data to generate and no folder the server would need permission for beyond its code.
 */
const FILE = fileURLToPath(import.meta.url);
const PASSWORD = 'starve-password';
const SALT = 'starve-salt';

export function input(query: URLSearchParams): StarveInput {
  const blockers = int(query, 'blockers', BOUNDS.blockers);
  const iterations = int(query, 'iterations', BOUNDS.iterations);
  if (blockers * iterations > BLOCKER_BUDGET) {
    throw new RangeError(
      `blockers x iterations must be at most ${BLOCKER_BUDGET}, got ${blockers} x ${iterations} = ${blockers * iterations} ` +
        `(at ${blockers} blockers, iterations at most ${Math.floor(BLOCKER_BUDGET / Math.max(1, blockers))})`,
    );
  }
  return { blockers, iterations };
}

export function sync({ blockers, iterations }: StarveInput): { blockers: number; iterations: number; bytes: number; checksum: number } {
  for (let i = 0; i < blockers; i++) pbkdf2Sync(PASSWORD, SALT, iterations, 32, 'sha256');
  const data = readFileSync(FILE);
  return { blockers, iterations, bytes: data.byteLength, checksum: crc32(data) };
}

export async function async({
  blockers,
  iterations,
}: StarveInput): Promise<{ blockers: number; iterations: number; bytes: number; checksum: number }> {
  // Not awaited on purpose (see the top): their keys are not the answer, and an error in one
  // is nothing the read's caller could act on.
  for (let i = 0; i < blockers; i++) pbkdf2(PASSWORD, SALT, iterations, 32, 'sha256', ignore);
  const data = await readFile(FILE);
  return { blockers, iterations, bytes: data.byteLength, checksum: crc32(data) };
}

function ignore(): void {}

function int(query: URLSearchParams, param: string, bounds: { min: number; max: number; default: number }): number {
  const values = query.getAll(param);
  if (values.length === 0) return bounds.default;
  const raw = values.length === 1 ? values[0]! : '';
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= bounds.min && value <= bounds.max)) {
    const got = values.join(',');
    throw new RangeError(
      `${param} must be an integer from ${bounds.min} to ${bounds.max}, got "${got.length > 40 ? `${got.slice(0, 40)}...` : got}"`,
    );
  }
  return value;
}
