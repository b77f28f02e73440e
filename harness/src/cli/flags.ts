// Flag checks shared by the harness's command lines: each problem is one line naming the flag
// and what it accepts, and the command exits 2 before starting anything.
import { accessSync, constants, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

export class FlagError extends Error {}

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

export function numberFlag(flag: string, raw: string | undefined, min: number, max: number, integer: boolean): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min || value > max) {
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

const EXIT_SIGNAL = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * SIGINT/SIGTERM abort `controller` once (a second one is ignored while the run winds down);
 * returns the exit code the command should end with, once it has.
 */
export function abortOnSignals(name: string, controller: AbortController, onSignal: () => void = () => {}): () => number | undefined {
  let caught: keyof typeof EXIT_SIGNAL | undefined;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (caught !== undefined) return;
      caught = signal;
      console.error(`\n${name}: ${signal}: stopping the load and the servers`);
      controller.abort();
      onSignal();
    });
  }
  return () => (caught === undefined ? undefined : EXIT_SIGNAL[caught]);
}

/**
 * Runs a command's main and exits with its code. A crash is one line with its stack on stderr
 * and exit 1, after `cleanup` (e.g. stopping every server still running).
 */
export function runMain(name: string, main: () => Promise<number>, cleanup: () => Promise<void> = async () => {}): void {
  main().then(
    (code) => process.exit(code),
    async (error: unknown) => {
      console.error(`${name}: ${(error as Error).stack ?? String(error)}`);
      await cleanup();
      process.exit(1);
    },
  );
}

/**
 * A path as the user typed it, made absolute from where they typed the command: pnpm runs each
 * script from its package folder and says where it was started in INIT_CWD.
 */
export function typedPath(path: string): string {
  return resolve(process.env.INIT_CWD ?? process.cwd(), path);
}
