// Seed 001: bcrypt, native hashSync on the loop against hash on the addon's thread pool.
import bcrypt from 'bcrypt';
import type { ScenarioSettings } from '../scenario-contract.ts';

export const name = 'hash';
export const description = 'bcrypt hash of a fixed secret: hashSync against hash';
export const order = 1;
/** bcrypt's own async hash is the off-loop mode the seed measured; the worker mode runs when asked. */
export const modes = ['sync', 'async'] as const;

/** The fixed secret every /hash request hashes; verify() checks answers against it. */
export const HASH_SECRET = 'correct horse battery staple';

interface Job {
  cost: number;
}
interface Hashed {
  hash: string;
  cost: number;
}

export function input(_query: URLSearchParams, settings: ScenarioSettings): Job {
  return { cost: settings.hashCost };
}

export function sync({ cost }: Job): Hashed {
  return { hash: bcrypt.hashSync(HASH_SECRET, cost), cost };
}

export async function async({ cost }: Job): Promise<Hashed> {
  return { hash: await bcrypt.hash(HASH_SECRET, cost), cost };
}

/** Each hash has its own salt, so answers are checked against the secret rather than each other. */
export async function verify(body: Partial<Hashed>, settings: ScenarioSettings): Promise<string | undefined> {
  if (typeof body.hash !== 'string') return `no hash in ${JSON.stringify(body).slice(0, 120)}`;
  if (body.cost !== settings.hashCost) return `cost ${body.cost}, expected ${settings.hashCost}`;
  return (await bcrypt.compare(HASH_SECRET, body.hash)) ? undefined : 'hash does not verify against the secret';
}
