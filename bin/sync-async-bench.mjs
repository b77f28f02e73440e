#!/usr/bin/env node
// `sync-async-bench <command> [flags]`: the harness's commands as one installed command, run from
// the user's own project. Each command is the pnpm script of the same name in package.json
// (bench:ab -> ab), with the same flags; paths are read from the folder the command is typed in,
// and runs are written under its ./bench-results unless --out says otherwise.
import { spawn } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Each command: the harness entry point, the arguments its script adds, and whether the script
 * raises the open-files limit first (the commands that put load on a server: Node cannot raise
 * its own, and a bench of many connections needs more than the usual 1024).
 */
export const COMMANDS = {
  bench: { file: 'bench-cli.ts', load: true },
  catalogue: { file: 'bench-cli.ts', args: ['--scenarios', 'catalogue'], load: true },
  ab: { file: 'ab-cli.ts', load: true },
  compare: { file: 'compare-cli.ts' },
  report: { file: 'report-cli.ts' },
  runtimes: { file: 'runtimes-cli.ts' },
  curve: { file: 'curve-cli.ts', load: true },
  seeds: { file: 'seeds-cli.ts', load: true },
  calibrate: { file: 'calibrate-cli.ts', load: true },
  // puppeteer-core is an optional peer of the installed command (scripts/pack-cli.mjs).
  browser: { file: 'browser-cli.ts', needs: ['puppeteer-core'] },
  data: { file: 'data-cli.ts' },
};

const USAGE = `usage: sync-async-bench <${Object.keys(COMMANDS).join('|')}> [flags] (the flags of pnpm bench:<command>)`;

/** The node command line of one invocation, or a one-line problem. */
export function commandLine(argv, cwd = process.cwd()) {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') return { usage: true };
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) return { error: `unknown command "${name}"; ${USAGE}` };
  // From the harness's folder: a production install of the repository has tsx there and not at its root.
  const fromHarness = createRequire(resolve(ROOT, 'harness/package.json'));
  const missing = (command.needs ?? []).filter((pkg) => !resolvable(fromHarness, `${pkg}/package.json`));
  if (missing.length > 0)
    return {
      error: `${name} needs ${missing.join(', ')}, which is not installed with it: npm install --save-dev ${missing.map(pinned).join(' ')}`,
    };
  // tsx's loader by path: the user's project need not have tsx, and the harness's must be the one used.
  const tsx = fromHarness.resolve('tsx/package.json');
  const loader = pathToFileURL(resolve(dirname(tsx), 'dist/loader.mjs')).href;
  return {
    args: ['--import', loader, resolve(ROOT, 'harness/src', command.file), ...(command.args ?? []), ...rest],
    load: command.load === true,
    env: {
      // The harness reads relative paths from INIT_CWD (pnpm's "where the command was typed"):
      // here that is this process's folder, whatever an outer script runner set.
      INIT_CWD: cwd,
      // biome-ignore lint/suspicious/noUndeclaredEnvVars: the harness reads it (system/paths.ts), no turbo task does.
      BENCH_RESULTS_ROOT: process.env.BENCH_RESULTS_ROOT || resolve(cwd, 'bench-results'),
    },
  };
}

function resolvable(require, specifier) {
  try {
    require.resolve(specifier);
    return true;
  } catch {
    return false;
  }
}

/** "name@version" as the installed package pins it (an optional peer), or the bare name. */
function pinned(pkg) {
  const manifest = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8'));
  const version = manifest.peerDependencies?.[pkg];
  return version === undefined ? pkg : `${pkg}@${version}`;
}

function main() {
  const line = commandLine(process.argv.slice(2));
  if (line.usage) {
    console.log(USAGE);
    return;
  }
  if (line.error !== undefined) {
    console.error(`sync-async-bench: ${line.error}`);
    process.exitCode = 2;
    return;
  }
  // exec: the shell becomes the harness, so the pid that gets a forwarded signal is the harness's.
  const argv = line.load
    ? ['/bin/sh', '-c', 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$@"', 'sh', process.execPath]
    : [process.execPath];
  const [binary, ...first] = argv;
  const child = spawn(binary, [...first, ...line.args], { stdio: 'inherit', env: { ...process.env, ...line.env } });
  // A signal sent to this process alone (a CI runner's cancel) reaches the harness too; one sent
  // to the whole group arrives twice, which the harness takes as one request (cli/command.ts).
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal === 'SIGINT' ? 130 : 143);
  });
}

if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) main();
