// Flag checks shared by the harness's command lines: each problem is one line naming the flag
// and what it accepts, and the command exits 2 before starting anything.
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CommandError } from './command.ts';

export class FlagError extends CommandError {}

/**
 * Strict parsing with node:util: the given string and boolean flags, no positionals. Unknown
 * flags and stray arguments become one-line FlagErrors.
 */
export function parseFlags(
  argv: string[],
  strings: readonly string[],
  booleans: readonly string[] = [],
  repeatable: readonly string[] = [],
): Record<string, string | boolean | undefined> {
  const options = Object.fromEntries([
    ...strings.map((name) => [name, { type: 'string' as const }]),
    ...booleans.map((name) => [name, { type: 'boolean' as const }]),
    ...repeatable.map((name) => [name, { type: 'string' as const, multiple: true }]),
  ]);
  try {
    // Only the `repeatable` flags' values are arrays (string[]); callers read those themselves.
    return parseArgs({ args: argv, strict: true, allowPositionals: false, options }).values as Record<string, string | boolean | undefined>;
  } catch (error) {
    throw new FlagError((error as Error).message.split('\n')[0] ?? String(error));
  }
}

/** A comma-separated list of known names, repeats dropped, order kept. */
export function nameList<T extends string>(flag: string, raw: string | undefined, allowed: readonly T[]): T[] | undefined {
  if (raw === undefined) return undefined;
  const items = [
    ...new Set(
      raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
  if (items.length === 0) throw new FlagError(`--${flag} is empty; accepted: ${allowed.join(', ')}`);
  const unknown = items.find((item) => !allowed.includes(item as T));
  if (unknown !== undefined) throw new FlagError(`--${flag}: unknown "${unknown}"; accepted: ${allowed.join(', ')}`);
  return items as T[];
}

export function choice<T extends string>(flag: string, raw: string | undefined, allowed: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  if (!allowed.includes(raw as T)) throw new FlagError(`--${flag}: unknown "${raw}"; accepted: ${allowed.join(', ')}`);
  return raw as T;
}

const INTEGER = /^-?\d+$/;
const DECIMAL = /^-?(\d+(\.\d*)?|\.\d+)$/;

/**
 * A number as people write one on a command line: digits, and for a non-integer a decimal
 * point. Number() alone takes "0x3", "1e1", " 3" and "3.0" for integers, so a typo or a script's
 * odd formatting would run a different plan than the one meant.
 */
export function plainNumber(raw: string, integer: boolean): number | undefined {
  return (integer ? INTEGER : DECIMAL).test(raw) ? Number(raw) : undefined;
}

export function numberFlag(flag: string, raw: string | undefined, min: number, max: number, integer: boolean): number | undefined {
  if (raw === undefined) return undefined;
  const value = plainNumber(raw, integer);
  if (value === undefined || !Number.isFinite(value) || value < min || value > max) {
    throw new FlagError(`--${flag} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/** Checked before measuring: finding out after minutes of load that nothing can be written is worse. */
export function writableDir(flag: string, dir: string): string {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return dir;
  } catch (error) {
    throw new FlagError(`--${flag} ${dir} is not a writable folder: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/**
 * writableDir's check without making anything: the folder if it exists, else its nearest existing
 * ancestor, must be a folder this process can write in. For commands that can still refuse the
 * run after their flags (a version to resolve, a host to reach): they make the folder with
 * writableDir once the run starts, so a refused run leaves no empty folder behind.
 */
export function creatableDir(flag: string, dir: string): string {
  const refuse = (why: string): never => {
    throw new FlagError(`--${flag} ${dir} is not a writable folder: ${why}`);
  };
  for (let at = resolve(dir); ; at = dirname(at)) {
    try {
      if (!statSync(at).isDirectory()) refuse(at === resolve(dir) ? 'ENOTDIR' : `ENOTDIR (${at} is not a folder)`);
      // Making an entry in a folder takes search (x) as well as write permission on it.
      accessSync(at, constants.W_OK | constants.X_OK);
      return dir;
    } catch (error) {
      if (error instanceof FlagError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' || dirname(at) === at) refuse(code ?? (error as Error).message);
    }
  }
}

/**
 * A path as the user typed it, made absolute from where they typed the command: pnpm runs each
 * script from its package folder and says where it was started in INIT_CWD.
 */
export function typedPath(path: string): string {
  return resolve(process.env.INIT_CWD ?? process.cwd(), path);
}
