import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverRoot } from './server-copy.ts';

const here = dirname(fileURLToPath(import.meta.url));
/**
 * The deno binary itself, which the npm package's postinstall places beside its bin.cjs. The
 * .bin shim would run it as a grandchild through Node, so its pid would not be the one started.
 * Resolved when asked for, not when this module loads: a machine without the deno package must
 * still be able to run the other runtimes (the harness reports deno as skipped, with this error).
 */
export function denoBinary(): string {
  const dir = dirname(createRequire(resolve(here, 'package.json')).resolve('deno/package.json'));
  const placed = resolve(dir, 'deno');
  if (existsSync(placed)) return placed;
  // An npm that runs only the install scripts a project approved left it unplaced: the package's
  // own first-run step places it (or names the platform package's binary), as its bin.cjs does.
  const install = createRequire(resolve(dir, 'package.json'))('./install_api.cjs') as { runInstall(): string };
  return install.runInstall();
}
/** The installation's root: a checkout of the repository, or the installed package. */
const INSTALLED = resolve(here, '../..');
const DEFAULT_DATA_DIR = resolve(INSTALLED, 'data/files');

const fromApp = createRequire(resolve(here, '../../packages/app/package.json'));

/** The real folder of the bcrypt package the app loads (pnpm links it from the store). */
function bcryptDir(): string {
  return dirname(realpathSync(fromApp.resolve('bcrypt/package.json')));
}

/** The real folder of piscina's build (its package.json is not exported): worker.js starts each pool thread by path. */
function piscinaDir(): string {
  return dirname(realpathSync(fromApp.resolve('piscina')));
}

/**
 * The deno command line for the server: explicit, narrow permissions, never -A.
 * - net: the bind address only (any port, so port 0 works);
 * - read: the data files, the app's source (worker threads load it by path), the bcrypt package (node-gyp-build lists its prebuilds folder),
 *   piscina's build (its worker.js starts each pool thread),
 *   /etc/alpine-release (node-gyp-build's libc check), and the folder of each --scenario-file (the module and
 *   what it imports beside it; only those folders);
 * - ffi: the bcrypt package only, whose native addon Deno loads through Node-API;
 * - env: node-gyp-build and Node's compat layer read a few variables while loading the addon.
 * With --processes N (N > 1) only: run (the deno binary itself, to start the serving processes)
 * and net on 127.0.0.1 (their control ports), plus --unstable-net (reusePort); the flags themselves are passed on to the server
 * (DENO_FLAGS_ARG), which cannot read its own command line, to start its serving processes alike.
 */
export function denoArgs(serverArgs: string[]): string[] {
  const root = serverRoot(INSTALLED);
  // Worker threads load their module by path, which Deno checks against read permission.
  const appSource = resolve(root, 'packages/app/src');
  // A copy's own data folder would be empty: the installation's is the one `data` fills.
  const args =
    root !== INSTALLED && flagValue(serverArgs, '--data-dir') === undefined ? [...serverArgs, '--data-dir', DEFAULT_DATA_DIR] : serverArgs;
  const host = flagValue(serverArgs, '--host') ?? '127.0.0.1';
  const dataDir = resolve(flagValue(serverArgs, '--data-dir') ?? DEFAULT_DATA_DIR);
  const addon = bcryptDir();
  const pool = piscinaDir();
  const scenarioDirs = flagValues(serverArgs, '--scenario-file').map((f) => dirname(resolve(f)));
  const processes = flagValue(serverArgs, '--processes');
  const several = processes !== undefined && processes !== '1';
  const netHosts = [host.replace(/^\[|\]$/g, ''), ...(several ? ['127.0.0.1'] : [])];
  const flags = [
    '--no-prompt',
    `--config=${resolve(root, 'runtimes/deno/deno.json')}`,
    `--allow-net=${[...new Set(netHosts)].join(',')}`,
    `--allow-read=${[...new Set([dataDir, appSource, addon, pool, '/etc/alpine-release', ...scenarioDirs])].join(',')}`,
    // reusePort on Deno.serve is still behind --unstable-net in Deno 2.9.
    ...(several ? [`--allow-run=${denoBinary()}`, '--unstable-net'] : []),
    `--allow-ffi=${addon}`,
    '--allow-env',
  ];
  return ['run', ...flags, resolve(root, 'runtimes/deno/server.ts'), ...args, ...(several ? [DENO_FLAGS_ARG, JSON.stringify(flags)] : [])];
}

/** The server argument carrying deno's own flags (see denoArgs); the server strips it. */
export const DENO_FLAGS_ARG = '--deno-flags';

function flagValue(args: string[], flag: string): string | undefined {
  return flagValues(args, flag)[0];
}

/** Every value of a repeatable flag, as `--flag v` or `--flag=v`. */
function flagValues(args: string[], flag: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === flag && args[i + 1] !== undefined) out.push(args[++i] ?? '');
    else if (arg.startsWith(`${flag}=`)) out.push(arg.slice(flag.length + 1));
  }
  return out;
}
