import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RuntimeName } from '@bench/app';
import { denoArgs, DENO_BIN } from '@bench/runtime-deno/command';
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
}

function packageDir(runtime: RuntimeName, pkg: string): string {
  const require = createRequire(resolve(RUNTIMES_DIR, runtime, 'package.json'));
  return dirname(require.resolve(`${pkg}/package.json`));
}

function nodeSpec(): RuntimeSpec {
  // tsx's loader registered with --import, not the tsx CLI: the CLI runs node as a child.
  const loader = pathToFileURL(resolve(packageDir('node', 'tsx'), 'dist/loader.mjs')).href;
  return {
    name: 'node',
    binary: process.execPath,
    args: (serverArgs) => ['--import', loader, resolve(RUNTIMES_DIR, 'node/server.ts'), ...serverArgs],
    versionArgs: ['--version'],
    parseVersion: (out) => out.trim().replace(/^v/, ''),
  };
}

function bunSpec(): RuntimeSpec {
  return {
    name: 'bun',
    binary: resolve(packageDir('bun', 'bun'), 'bin/bun.exe'),
    args: (serverArgs) => [resolve(RUNTIMES_DIR, 'bun/server.ts'), ...serverArgs],
    versionArgs: ['--version'],
    parseVersion: (out) => out.trim(),
  };
}

function denoSpec(): RuntimeSpec {
  return {
    name: 'deno',
    binary: DENO_BIN,
    args: denoArgs,
    versionArgs: ['--version'],
    parseVersion: (out) => /deno (\S+)/.exec(out)?.[1] ?? out.trim(),
  };
}

/**
 * `BENCH_NODE_BIN`, `BENCH_BUN_BIN`, `BENCH_DENO_BIN`: run another binary of that runtime (a
 * newer build, a debug build) with the same entrypoint and flags.
 */
export function binaryOverride(name: RuntimeName, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env[`BENCH_${name.toUpperCase()}_BIN`];
  return value === undefined || value === '' ? undefined : value;
}

export function runtimeSpec(name: RuntimeName): RuntimeSpec {
  const spec = name === 'node' ? nodeSpec() : name === 'bun' ? bunSpec() : denoSpec();
  const binary = binaryOverride(name);
  return binary === undefined ? spec : { ...spec, binary };
}

/** The runtime's exact version, or why it cannot run here (binary missing or broken). */
export function probeRuntime(spec: RuntimeSpec): { ok: true; version: string } | { ok: false; reason: string } {
  if (!existsSync(spec.binary)) return { ok: false, reason: `${spec.name} binary not found at ${spec.binary}` };
  try {
    const out = execFileSync(spec.binary, spec.versionArgs, { encoding: 'utf8', timeout: 15_000, stdio: ['ignore', 'pipe', 'pipe'] });
    return { ok: true, version: spec.parseVersion(out) };
  } catch (error) {
    const err = error as { stderr?: string; message: string };
    return { ok: false, reason: `${spec.name} --version failed: ${(err.stderr || err.message).trim().split('\n')[0]}` };
  }
}
