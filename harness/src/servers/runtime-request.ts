/**
 * Runtime versions as asked for on the command line (`node@22`, `node@22.23.3`, `bun@1.3`,
 * `deno`), and how they match real versions. Pure functions.
 */
import type { RuntimeName } from '@bench/app';
import { FlagError } from '../cli/flags.ts';

export interface RuntimeRequest {
  name: RuntimeName;
  /** A release line ("22", "1.3") or an exact version ("22.23.3"); absent: the pinned default. */
  version?: string;
  /** As typed, normalised: "node@22", or "node" for the default. */
  label: string;
}

const VERSION = /^\d+(\.\d+){0,2}$/;

export function parseRuntimeRequest(text: string, names: readonly RuntimeName[]): RuntimeRequest {
  const at = text.indexOf('@');
  const name = (at === -1 ? text : text.slice(0, at)).trim();
  if (!names.includes(name as RuntimeName)) throw new FlagError(`--runtimes: unknown "${name}"; accepted: ${names.join(', ')}`);
  if (at === -1) return { name: name as RuntimeName, label: name };
  const version = text
    .slice(at + 1)
    .trim()
    .replace(/^v/, '');
  if (!VERSION.test(version))
    throw new FlagError(`--runtimes: "${text}": a version is a release line or an exact version, e.g. ${name}@22 or ${name}@22.23.3`);
  return { name: name as RuntimeName, version, label: `${name}@${version}` };
}

/** A comma-separated list of runtimes, each optionally with @version; repeats dropped, order kept. */
export function parseRuntimeList(raw: string, names: readonly RuntimeName[]): RuntimeRequest[] {
  const items = [
    ...new Set(
      raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
  if (items.length === 0) throw new FlagError(`--runtimes is empty; accepted: ${names.join(', ')}`);
  const requests = items.map((item) => parseRuntimeRequest(item, names));
  const labels = requests.map((r) => r.label);
  const repeat = labels.find((label, i) => labels.indexOf(label) !== i);
  if (repeat !== undefined) throw new FlagError(`--runtimes: "${repeat}" is given twice`);
  return requests;
}

/** Stable versions only: "24.21.0", not "24.0.0-rc.1" or "4.1.0-pkg1". */
export function isStable(version: string): boolean {
  return /^\d+\.\d+\.\d+$/.test(version);
}

export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Whether `version` is `wanted` or in its release line ("22" holds 22.23.3; "2.8" holds 2.8.3, not 2.80.0). */
export function matches(version: string, wanted: string): boolean {
  const v = version.split('.');
  const w = wanted.split('.');
  return w.every((part, i) => v[i] === part);
}

/** The newest stable version in `versions` matching `wanted`. */
export function pickVersion(versions: readonly string[], wanted: string): string | undefined {
  return versions
    .filter((v) => isStable(v) && matches(v, wanted))
    .sort(compareVersions)
    .at(-1);
}

/**
 * The newest version of each release line, oldest line first: majors for Node (20, 22, 24), minors
 * for Bun and Deno (1.3, 2.8), whose minors are their release lines. At most `limit` of the newest.
 */
export function latestPerLine(versions: readonly string[], lineParts: 1 | 2, limit = 12): string[] {
  const byLine = new Map<string, string>();
  for (const v of versions.filter(isStable).sort(compareVersions)) byLine.set(v.split('.').slice(0, lineParts).join('.'), v);
  return [...byLine.values()].slice(-limit);
}
