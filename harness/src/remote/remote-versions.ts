/**
 * Named runtime versions (`--runtimes node@22,bun@1.3`) with --server-host: resolved and, when
 * missing, installed *on the server host*, by that checkout's own `runtimes-cli --fetch` (the
 * same code as here: the pinned package when it matches, else data/runtimes there, else npm on
 * that host, which checks each tarball's integrity against the registry). One ssh call for all
 * of them, before any load. A version that host cannot provide is a PreflightError (exit 2)
 * naming the host and the reason.
 */
import type { RuntimeName } from '@bench/app';
import { bunSpecFor, denoSpecFor, nodeSpecFor, runtimeSpec, type RuntimeSpec } from '../servers/runtimes.ts';
import type { RuntimeRequest } from '../servers/runtime-request.ts';
import { PreflightError, remoteSpec, type RemoteRuntime } from './preflight.ts';
import { hostOf, sshRun } from './ssh.ts';
import type { RemoteTarget } from '../servers/server-host.ts';

/** `label: version from source (binary)` or `label: unavailable: reason`, as runtimes-cli prints them. */
const FOUND = /^(\S+): (\S+) from (.*) \((\/.*)\)$/;
const MISSING = /^(\S+): unavailable: (.*)$/;

/** The fetch command there: its pinned Node with tsx's loader running its runtimes-cli. */
export function remoteFetchArgv(dir: string, requests: readonly RuntimeRequest[]): string[] {
  const node = remoteSpec(runtimeSpec('node'), dir);
  const loader = node.args([]).find((a) => a.startsWith('file://')) ?? 'tsx';
  return [node.binary, '--import', loader, `${dir}/harness/src/runtimes-cli.ts`, '--fetch', requests.map((r) => r.label).join(',')];
}

/** One installation there as a spec: its binary as that host names it, every other path moved to the checkout there. */
export function remoteVersionSpec(name: RuntimeName, binary: string, source: string, label: string, dir: string): RuntimeSpec {
  const local = name === 'node' ? nodeSpecFor(binary, source) : name === 'bun' ? bunSpecFor(binary, source) : denoSpecFor(binary, source);
  return { ...remoteSpec(local, dir), binary, source: `${source} on the server host`, label };
}

/** Parses runtimes-cli's answer; throws a PreflightError for anything that host cannot provide. */
export function parseRemoteVersions(
  requests: readonly RuntimeRequest[],
  stdout: string,
  dir: string,
  host: string,
): Map<string, RemoteRuntime> {
  const lines = stdout.split('\n').map((l) => l.trim());
  const out = new Map<string, RemoteRuntime>();
  for (const request of requests) {
    const line = lines.find((l) => l.startsWith(`${request.label}: `)) ?? '';
    const missing = MISSING.exec(line);
    if (missing !== null) throw new PreflightError(`--runtimes ${request.label}: not available on ${host}: ${missing[2]}`);
    const found = FOUND.exec(line);
    if (found === null) throw new PreflightError(`--runtimes ${request.label}: no answer from the version check on ${host}`);
    const spec = remoteVersionSpec(request.name, found[4] ?? '', found[3] ?? '', request.label, dir);
    out.set(request.label, { spec, probe: { ok: true, version: found[2] ?? '' } });
  }
  return out;
}

export async function resolveRemoteVersions(
  target: RemoteTarget,
  requests: readonly RuntimeRequest[],
  log: (line: string) => void,
): Promise<Map<string, RemoteRuntime>> {
  const host = hostOf(target.destination);
  log(`resolving ${requests.map((r) => r.label).join(', ')} on ${host} (fetched there from the npm registry when not installed; once)`);
  const out = await sshRun(target, remoteFetchArgv(target.dir, requests), 900_000);
  const last = (text: string) =>
    text
      .trim()
      .split('\n')
      .filter((l) => l.trim() !== '')
      .at(-1) ?? '';
  // 2: runtimes-cli refused a version (none such on the registry): its own line says which.
  if (out.code === 2) throw new PreflightError(`--runtimes on ${host}: ${last(out.stderr).replace(/^runtimes: (--runtimes: )?/, '')}`);
  if (out.code !== 0 && out.code !== 1)
    throw new PreflightError(`cannot resolve --runtimes on ${host} (exit ${out.code}): ${last(out.stderr) || 'no message'}`);
  return parseRemoteVersions(requests, out.stdout, target.dir, host);
}
