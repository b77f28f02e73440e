/**
 * Password hashing without a native addon: node:crypto's key derivation, the hash scenario's
 * question (is a blocking hash on the loop wrong?) asked of a built-in every runtime ships.
 * scryptSync and pbkdf2Sync run on the calling thread; scrypt and pbkdf2 hand the work to the
 * runtime's thread pool (libuv's in Node, Bun's WorkPool, Deno's blocking pool), or claim to.
 */
import { pbkdf2, pbkdf2Sync, scrypt, scryptSync } from 'node:crypto';
import type { Buffer } from 'node:buffer';
import { promisify } from 'node:util';

export const name = 'kdf';
export const description = 'node:crypto key derivation: scryptSync/pbkdf2Sync on the thread against scrypt/pbkdf2 on the pool';
/** Outside the default plan: `--scenarios catalogue` (pnpm bench:catalogue) or its own name measures it. */
export const group = 'catalogue';

const ALGOS = ['scrypt', 'pbkdf2'] as const;
type Algo = (typeof ALGOS)[number];

export interface KdfInput {
  algo: Algo;
  /** scrypt: log2 of the cost N (r = 8, p = 1); pbkdf2: SHA-256 iterations. */
  cost: number;
}

/**
 * Sized to ~5-20 ms a call at the default and under ~0.3 s of CPU at the bound on every runtime
 * here: scrypt's time and memory double with each step of logN (2^16 x 8 x 128 B = 64 MiB), and
 * the bound on iterations is OWASP's recommendation for PBKDF2-HMAC-SHA256.
 */
export const BOUNDS = {
  logN: { min: 10, max: 16, default: 13 },
  iterations: { min: 1000, max: 600_000, default: 50_000 },
} as const;

// Fixed secret and salt, so every mode and every runtime derives the same key for the same input.
const PASSWORD = 'correct horse battery staple';
const SALT = 'bench-kdf-salt-0';
const KEY_BYTES = 32;
const SCRYPT_R = 8;

function scryptOptions(logN: number) {
  const N = 2 ** logN;
  // Node refuses more than 32 MiB by default; the bound above is what limits memory here.
  return { N, r: SCRYPT_R, p: 1, maxmem: 256 * N * SCRYPT_R };
}

export function input(query: URLSearchParams): KdfInput {
  const algo = choice(query, 'algo', ALGOS);
  const bounds = algo === 'scrypt' ? BOUNDS.logN : BOUNDS.iterations;
  const param = algo === 'scrypt' ? 'logN' : 'iterations';
  return { algo, cost: int(query, param, bounds) };
}

export function sync({ algo, cost }: KdfInput): { algo: Algo; cost: number; key: string } {
  const key =
    algo === 'scrypt' ? scryptSync(PASSWORD, SALT, KEY_BYTES, scryptOptions(cost)) : pbkdf2Sync(PASSWORD, SALT, cost, KEY_BYTES, 'sha256');
  return { algo, cost, key: key.toString('hex') };
}

const scryptAsync = promisify(scrypt) as (password: string, salt: string, length: number, options: object) => Promise<Buffer>;
const pbkdf2Async = promisify(pbkdf2);

export async function async({ algo, cost }: KdfInput): Promise<{ algo: Algo; cost: number; key: string }> {
  const key =
    algo === 'scrypt'
      ? await scryptAsync(PASSWORD, SALT, KEY_BYTES, scryptOptions(cost))
      : await pbkdf2Async(PASSWORD, SALT, cost, KEY_BYTES, 'sha256');
  return { algo, cost, key: key.toString('hex') };
}

function choice<T extends string>(query: URLSearchParams, param: string, choices: readonly T[]): T {
  const values = query.getAll(param);
  if (values.length === 0) return choices[0]!;
  const found = choices.find((c) => values.length === 1 && c === values[0]);
  if (found === undefined) throw new RangeError(`${param} must be one of ${choices.join(', ')}, got "${clip(values.join(','))}"`);
  return found;
}

function int(query: URLSearchParams, param: string, bounds: { min: number; max: number; default: number }): number {
  const values = query.getAll(param);
  if (values.length === 0) return bounds.default;
  const raw = values.length === 1 ? values[0]! : '';
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= bounds.min && value <= bounds.max)) {
    throw new RangeError(`${param} must be an integer from ${bounds.min} to ${bounds.max}, got "${clip(values.join(','))}"`);
  }
  return value;
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}...` : s;
}
