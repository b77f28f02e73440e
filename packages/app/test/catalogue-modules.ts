/**
 * The catalogue's scenario modules and the inputs the tests ask of them: each one's default,
 * each other kind of work it does, and the most expensive input its bounds allow.
 */
import * as gzip from '../src/scenarios/gzip.ts';
import * as json from '../src/scenarios/json.ts';
import * as kdf from '../src/scenarios/kdf.ts';
import * as regex from '../src/scenarios/regex.ts';
import * as render from '../src/scenarios/render.ts';
import * as sqlite from '../src/scenarios/sqlite.ts';
import * as starve from '../src/scenarios/starve.ts';

/** The contract as the tests see it (the modules themselves import nothing of the project). */
export interface ScenarioModule {
  name: string;
  description: string;
  sync(input: never): unknown;
  async?(input: never): Promise<unknown>;
  input?(query: URLSearchParams): unknown;
  setup?(): Promise<void>;
}

export const MODULES = { gzip, json, kdf, regex, render, sqlite, starve } as unknown as Record<string, ScenarioModule>;

/** Query strings: the default first, then the module's other kinds of work. */
export const QUERIES: Record<string, string[]> = {
  gzip: ['', 'codec=brotli'],
  json: [''],
  kdf: ['', 'algo=pbkdf2'],
  regex: [''],
  render: [''],
  sqlite: ['', 'query=point'],
  starve: [''],
};

/** The most expensive query each module's bounds allow, per kind of work. */
export const WORST: Record<string, string[]> = {
  gzip: ['kb=4096', 'codec=brotli&kb=4096'],
  json: ['kb=8192'],
  kdf: ['logN=16', 'algo=pbkdf2&iterations=600000'],
  regex: ['n=26'],
  render: ['rows=20000'],
  sqlite: ['rows=500000', 'query=point&key=500000'],
  starve: ['blockers=16&iterations=25000', 'blockers=2&iterations=200000'],
};

/** Runs a module's input() on a query string, or undefined for a module without one. */
export function inputOf(mod: ScenarioModule, query: string): never {
  return mod.input?.(new URLSearchParams(query)) as never;
}

/** node:sqlite is in Node 22.5 and later; the suite may run on an older host Node. */
export const SQLITE_LOADS = await import('node:sqlite' as string).then(
  () => true,
  () => false,
);
