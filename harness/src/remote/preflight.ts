/**
 * Before anything starts on a remote run: one ssh call that proves the host is reachable and
 * takes our key, finds the checkout, asks each runtime there for its version and describes the
 * machine. Anything that stops the whole run is a PreflightError (the CLI exits 2 with its
 * line); a runtime missing there only skips that runtime.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { CHECKSUM_KIND, type Manifest, type RuntimeName } from '@bench/app';
import type { NetworkPath, ServerHostEnvironment } from '../model/environment.ts';
import { runtimeSpec, type RuntimeSpec } from '../servers/runtimes.ts';
import { REPO_ROOT } from '../system/paths.ts';
import { CommandError } from '../cli/command.ts';
import { describeSshFailure, hostOf, missingSshReason, sshRun } from './ssh.ts';
import type { HostInstallation, RemoteTarget } from '../servers/server-host.ts';

export class PreflightError extends CommandError {}

/** An installation on the server host and what probing it there found. */
export type RemoteRuntime = HostInstallation;

/** The file scenario's data on the server host: its folder there and the shape the plan wants. */
export interface RemoteData {
  dir: string;
  count: number;
  sizeBytes: number;
}

export interface RemoteSetup {
  target: RemoteTarget & { bind: string; address: string };
  /** The server host's own manifest.json: the files its servers read (random bytes, made there). */
  manifest?: Manifest;
  runtimes: Map<RuntimeName, RemoteRuntime>;
  environment: ServerHostEnvironment;
  mtu: NetworkPath['mtu'];
  /** This host's address as the server host sees it (first field of its $SSH_CONNECTION). */
  loadAddress?: string;
  /** The per-user process limit there (ulimit -u), when it is a number (not "unlimited"). */
  maxUserProcesses?: number;
  /** --runtimes with versions: each request's installation there, by label (remote-versions.ts). */
  versions?: Map<string, RemoteRuntime>;
}

/**
 * Paths of this checkout moved to the other host's checkout (same layout: same lockfile, same
 * pnpm store layout). Where this host runs no pinned Node, Node is taken from the remote PATH.
 */
export function remoteSpec(spec: RuntimeSpec, dir: string): RuntimeSpec {
  if (spec.unavailable !== undefined) return spec;
  const move = (s: string) => movePath(s, dir);
  // The host's Node (the pinned package is not installed here) is the other host's own `node`.
  const binary = spec.name === 'node' && spec.source?.startsWith('host') === true ? 'node' : move(spec.binary);
  return { ...spec, binary, args: (serverArgs) => spec.args(serverArgs).map(move) };
}

/** A path (or file URL, or list of them) of this checkout, moved to the checkout `dir` there. */
export function movePath(text: string, dir: string): string {
  return text.replaceAll(pathToFileURL(REPO_ROOT).href, pathToFileURL(dir).href).replaceAll(REPO_ROOT, dir);
}

/** The files each runtime needs there besides its binary (node: tsx's loader in node_modules). */
function neededFile(spec: RuntimeSpec): string {
  const loader = spec.args([]).find((a) => a.startsWith('file://'));
  return loader === undefined ? spec.binary : new URL(loader).pathname;
}

/**
 * Prints key=value lines. $1 the checkout, $2 the bind address asked for (may be empty), $3 the
 * data folder whose manifest is wanted (may be empty), then triples: runtime name, binary, a
 * file it needs.
 */
const PREFLIGHT = `dir="$1"; bind="$2"; data="$3"; shift 3
echo "conn=\${SSH_CONNECTION:-}"
if [ -f "$dir/packages/app/package.json" ] && [ -d "$dir/runtimes" ]; then echo checkout=ok; else echo checkout=missing; exit 0; fi
if [ -n "$data" ]; then if [ -r "$data/manifest.json" ]; then echo "manifest=$(tr -d '\\n' < "$data/manifest.json")"; else echo manifest=missing; fi; fi
cd "$dir"
while [ $# -ge 3 ]; do
  name=$1; bin=$2; need=$3; shift 3
  if [ ! -e "$need" ]; then echo "rt.$name=missing $need"; continue; fi
  if out=$("$bin" --version 2>&1); then echo "rt.$name=ok $(printf '%s' "$out" | tr '\\n' ' ')"; else echo "rt.$name=failed $(printf '%s' "$out" | head -n 1)"; fi
done
addr=$(printf '%s' "\${SSH_CONNECTION:-}" | cut -d' ' -f3)
[ -n "$bind" ] || bind=$addr
echo "os=$(. /etc/os-release 2>/dev/null; printf '%s' "\${PRETTY_NAME:-$(uname -s)}") ($(uname -m))"
echo "kernel=$(uname -r)"
echo "cpuModel=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')"
echo "cpuCount=$(getconf _NPROCESSORS_ONLN 2>/dev/null)"
echo "maxProcs=$(ulimit -u 2>/dev/null || ulimit -p 2>/dev/null)"
echo "memKb=$(awk '/^MemTotal/ {print $2}' /proc/meminfo 2>/dev/null)"
dev=$(ip -o addr show 2>/dev/null | awk -v a="$bind" '{split($4, p, "/"); if (p[1] == a) {print $2; exit}}')
[ -n "$dev" ] && echo "mtu=$(cat /sys/class/net/$dev/mtu 2>/dev/null)"
exit 0`;

export async function preflight(target: RemoteTarget, names: readonly RuntimeName[], data?: RemoteData): Promise<RemoteSetup> {
  const missing = missingSshReason();
  if (missing !== undefined) throw new PreflightError(missing);
  const specs = names.map((name) => remoteSpec(runtimeSpec(name), target.dir));
  const triples = specs.flatMap((s) => (s.unavailable === undefined ? [s.name, s.binary, neededFile(s)] : []));
  const out = await sshRun(target, ['sh', '-c', PREFLIGHT, 'bench-preflight', target.dir, target.bind ?? '', data?.dir ?? '', ...triples]);
  if (out.code === 255 || out.code === null)
    throw new PreflightError(describeSshFailure(target.destination, out.stderr || 'ssh timed out'));
  const kv = new Map(
    out.stdout.split('\n').flatMap((line) => {
      const at = line.indexOf('=');
      return at > 0 ? [[line.slice(0, at), line.slice(at + 1).trim()] as const] : [];
    }),
  );
  if (!kv.has('conn'))
    throw new PreflightError(
      `ssh to ${target.destination}: the remote shell ran nothing (exit ${out.code}): ${out.stderr.trim().split('\n').at(-1) ?? ''}`,
    );
  if (kv.get('checkout') !== 'ok')
    throw new PreflightError(
      `no checkout of this repository at ${target.dir} on ${target.destination}; clone it there and run the install step, or give --server-dir`,
    );
  const address = kv.get('conn')?.split(' ')[2] ?? '';
  const loadAddress = kv.get('conn')?.split(' ')[0] ?? '';
  const bind = target.bind ?? address;
  if (bind === '')
    throw new PreflightError(
      `ssh to ${target.destination}: $SSH_CONNECTION is empty there, so the bind address is unknown; give --server-bind`,
    );
  const runtimes = new Map<RuntimeName, RemoteRuntime>();
  for (const spec of specs) runtimes.set(spec.name, { spec, probe: probeOf(spec, kv.get(`rt.${spec.name}`), target.destination) });
  const host = hostOf(target.destination);
  const manifest = data === undefined ? undefined : remoteManifest(kv.get('manifest'), data, host);
  return {
    target: { ...target, bind, address: address === '' ? host : address },
    ...(manifest === undefined ? {} : { manifest }),
    ...(loadAddress === '' ? {} : { loadAddress }),
    ...(Number(kv.get('maxProcs')) > 0 ? { maxUserProcesses: Number(kv.get('maxProcs')) } : {}),
    runtimes,
    environment: {
      host,
      os: kv.get('os') ?? 'unknown',
      kernel: kv.get('kernel') ?? 'unknown',
      cpu: { model: kv.get('cpuModel') || 'unknown', count: Number(kv.get('cpuCount')) || 0 },
      memoryBytes: (Number(kv.get('memKb')) || 0) * 1024,
      dir: target.dir,
      bind,
      bindSource: target.bind === undefined ? 'ssh-connection' : 'flag',
    },
    mtu: {
      ...(localMtu(bind) === undefined ? {} : { client: localMtu(bind) }),
      ...(Number(kv.get('mtu')) > 0 ? { server: Number(kv.get('mtu')) } : {}),
    },
  };
}

/**
 * The file scenario's files are random bytes made on each host, so the answer checks need the
 * server host's own manifest; one of another shape than the plan's is refused before the run.
 */
export function remoteManifest(line: string | undefined, data: RemoteData, host: string): Manifest {
  const make = `run "pnpm data --count ${data.count} --size-bytes ${data.sizeBytes} --dir ${data.dir}" there`;
  if (line === undefined || line === 'missing')
    throw new PreflightError(`no data files for the file scenario on ${host} (${data.dir}/manifest.json missing): ${make}`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(line) as Manifest;
  } catch {
    throw new PreflightError(`${data.dir}/manifest.json on ${host} is not JSON: ${make}`);
  }
  if (manifest.count !== data.count || manifest.sizeBytes !== data.sizeBytes || manifest.files?.length !== data.count) {
    throw new PreflightError(
      `the data files on ${host} are ${manifest.count} of ${manifest.sizeBytes} bytes, not ${data.count} of ${data.sizeBytes}: ${make}`,
    );
  }
  if (manifest.checksums !== CHECKSUM_KIND)
    throw new PreflightError(`the data files on ${host} hold checksums of an older version (${data.dir}/manifest.json): ${make}`);
  return manifest;
}

function probeOf(spec: RuntimeSpec, line: string | undefined, destination: string): RemoteRuntime['probe'] {
  if (spec.unavailable !== undefined) return { ok: false, reason: spec.unavailable };
  const where = `on ${hostOf(destination)}`;
  if (line === undefined) return { ok: false, reason: `${spec.name}: no answer from the version check ${where}` };
  const [status, ...rest] = line.split(' ');
  const text = rest.join(' ').trim();
  if (status === 'ok') return { ok: true, version: spec.parseVersion(text.replace(/ (v8|typescript) .*$/, '')) };
  if (status === 'missing')
    return { ok: false, reason: `${spec.name} is not installed ${where} (${text} missing): run the install step there` };
  return { ok: false, reason: `${spec.name} --version failed ${where}: ${text}` };
}

/** MTU of the interface this host reaches `address` through (Linux, iproute2), if known. */
function localMtu(address: string): number | undefined {
  try {
    const route = execFileSync('ip', ['route', 'get', address], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5_000 });
    const dev = /\bdev (\S+)/.exec(route)?.[1];
    const mtu = dev === undefined ? NaN : Number(readFileSync(`/sys/class/net/${dev}/mtu`, 'utf8'));
    return mtu > 0 ? mtu : undefined;
  } catch {
    return undefined;
  }
}

/** Refuses a run where none of the runtimes asked for can run on the server host, with each one's reason. */
export function assertSomeRuntime(remote: RemoteSetup, runtimes: readonly RuntimeName[]): void {
  if (runtimes.some((r) => remote.runtimes.get(r)?.probe.ok === true)) return;
  const reasons = runtimes.map((r) => {
    const p = remote.runtimes.get(r)?.probe;
    return p !== undefined && !p.ok ? p.reason : r;
  });
  throw new PreflightError(`no runtime can run on ${remote.environment.host}: ${reasons.join('; ')}`);
}

/**
 * A process count the server host cannot provide, in one line naming the host, or undefined:
 * auto where its CPUs could not be counted, or more processes than its per-user limit leaves room for.
 */
export function processRefusal(
  plan: { processes?: readonly (number | 'auto')[] },
  cpus: number,
  maxUserProcesses: number | undefined,
  host: string,
): string | undefined {
  if (plan.processes === undefined) return undefined;
  if (plan.processes.includes('auto') && cpus <= 0)
    return `--processes auto: the CPUs of ${host} could not be counted there (getconf _NPROCESSORS_ONLN); give a number`;
  const counts = plan.processes.map((p) => (p === 'auto' ? cpus : p));
  const most = Math.max(...counts);
  // Each serving process is one process plus its supervisor and a few helpers (tsx's esbuild).
  if (maxUserProcesses !== undefined && most + 4 > maxUserProcesses) {
    return `--processes ${most}: ${host} allows at most ${maxUserProcesses} processes for this user (ulimit -u) there`;
  }
  return undefined;
}
