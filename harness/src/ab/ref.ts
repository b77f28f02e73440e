/**
 * ref: variants: this repository at another commit, as a git worktree of its own under
 * data/ab/<commit> (git-ignored) with its own install (the app, the runtimes and the binaries
 * its lockfile pins), made once and reused. The harness stays the current one: it plans, checks
 * and measures the ref's servers exactly as the current checkout's.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type RuntimeName, SERVER_FLAGS } from '@bench/app';
import { FlagError } from '../cli/flags.ts';
import { bunSpec, denoSpecFor, nodeSpec, packageId, resolved, type RuntimeSpec } from '../servers/runtimes.ts';
import { DEFAULT_DATA_DIR } from '../system/data-files.ts';
import { REPO_ROOT } from '../system/paths.ts';

export interface RefCheckout {
  name: string;
  commit: string;
  /** The worktree's root. */
  root: string;
}

/** Marks a worktree whose install finished: one interrupted half-way is installed again. */
const READY = '.bench-ab-installed';

function git(args: string[], cwd = REPO_ROOT): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** The commit a ref names here, or FlagError (exit 2) before anything starts. */
export function refCommit(flag: string, ref: string): string {
  try {
    return git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    throw new FlagError(`--${flag} ref:${ref}: not a commit of this repository (git rev-parse found nothing; fetch it first)`);
  }
}

/** The worktree of that commit, made and installed unless it already is. */
export function checkoutRef(name: string, commit: string, log: (line: string) => void): RefCheckout {
  const root = resolve(REPO_ROOT, 'data/ab', commit);
  if (!existsSync(resolve(root, READY))) {
    if (!existsSync(root)) {
      log(`ref:${name}: a worktree of ${commit.slice(0, 10)} in ${root}`);
      git(['worktree', 'add', '--detach', root, commit]);
    }
    log(`ref:${name}: installing its app and runtimes (pnpm install --frozen-lockfile), once`);
    const pnpm = resolve(REPO_ROOT, 'node_modules/.bin/pnpm');
    try {
      execFileSync(existsSync(pnpm) ? pnpm : 'pnpm', ['install', '--frozen-lockfile', '--reporter=silent'], {
        cwd: root,
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, CI: '1' },
      });
    } catch (error) {
      const stderr =
        String((error as { stderr?: Buffer }).stderr ?? '')
          .trim()
          .split('\n')[0] ?? '';
      throw new FlagError(`ref:${name}: pnpm install in ${root} failed: ${stderr || (error as Error).message}`);
    }
    writeFileSync(resolve(root, READY), `${new Date().toISOString()}\n`);
  }
  return { name, commit, root };
}

const withDataDir = (serverArgs: string[]) =>
  serverArgs.includes('--data-dir') ? serverArgs : [...serverArgs, '--data-dir', DEFAULT_DATA_DIR];

/**
 * The server flags of this checkout that a ref's own parser refuses as unknown (a ref may predate
 * a flag the harness passes): each flag is put to the ref's parseServerArgs, and only its
 * "unknown option" error counts (a known flag with a stub value fails validation instead).
 */
export async function unknownServerFlags(checkout: RefCheckout): Promise<string[]> {
  const file = resolve(checkout.root, 'packages/app/src/server-args.ts');
  if (!existsSync(file)) return [];
  const { parseServerArgs } = (await import(pathToFileURL(file).href)) as {
    parseServerArgs?: (argv: string[], identity: Record<string, unknown>) => unknown;
  };
  if (parseServerArgs === undefined) return [];
  const identity = { runtime: 'node', version: '0', pid: 0, cpus: 1, defaultDataDir: checkout.root };
  return Object.entries(SERVER_FLAGS).flatMap(([name, option]) => {
    try {
      parseServerArgs(option.type === 'boolean' ? [`--${name}`] : [`--${name}`, '1'], identity);
      return [];
    } catch (error) {
      return (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? [name] : [];
    }
  });
}

/** `serverArgs` without the named flags (and a string flag's value). */
export function withoutFlags(serverArgs: readonly string[], names: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < serverArgs.length; i++) {
    const name = (serverArgs[i] ?? '').replace(/^--/, '').split('=')[0] ?? '';
    const flag = (serverArgs[i] ?? '').startsWith('--') ? SERVER_FLAGS[name as keyof typeof SERVER_FLAGS] : undefined;
    if (flag === undefined || !names.includes(name)) out.push(serverArgs[i] ?? '');
    else if (flag.type === 'string' && !(serverArgs[i] ?? '').includes('=')) i++;
  }
  return out;
}

/**
 * A runtime's pinned installation in the ref's checkout, started with the ref's entrypoints; its
 * data files are the current checkout's (the ref's own data/ is empty). `dropFlags`: server flags
 * left off its command line (those one side of the pair does not know, left off both sides alike).
 */
export async function refSpec(checkout: RefCheckout, runtime: RuntimeName, dropFlags: readonly string[] = []): Promise<RuntimeSpec> {
  const runtimesDir = resolve(checkout.root, 'runtimes');
  const withData = (spec: RuntimeSpec): RuntimeSpec => ({
    ...spec,
    args: (serverArgs) => spec.args(withDataDir(withoutFlags(serverArgs, dropFlags))),
  });
  if (runtime === 'node') return withData(resolved('node', () => nodeSpec(runtimesDir)));
  if (runtime === 'bun') return withData(resolved('bun', () => bunSpec(runtimesDir)));
  // Deno's command line (its permissions) is the ref's own, as its runtimes/deno says.
  const command = resolve(runtimesDir, 'deno/command.ts');
  if (!existsSync(command))
    return { ...denoSpecFor('', ''), unavailable: `no runtimes/deno/command.ts at ${checkout.commit.slice(0, 10)}` };
  const deno = (await import(pathToFileURL(command).href)) as { denoBinary(): string; denoArgs(serverArgs: string[]): string[] };
  return withData(
    resolved('deno', () => {
      const binary = deno.denoBinary();
      return { ...denoSpecFor(binary, packageId(resolve(binary, '..'))), args: deno.denoArgs };
    }),
  );
}
