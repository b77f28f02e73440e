/**
 * bench:ab's two variants: parsed from --a/--b, checked before anything starts (a bad one is
 * FlagError: one line, exit 2), and turned into lanes, one per runtime and side, that the bench
 * schedules like any other lanes (runtime versions are lanes too). The report records each side
 * exactly (model/ab.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { RuntimeName } from '@bench/app';
import { loadScenarioFile, ScenarioError } from '@bench/app';
import { FlagError } from '../cli/flags.ts';
import type { AbKind, AbSide } from '../model/ab.ts';
import { resolveRequest } from '../servers/runtime-install.ts';
import { refCommit } from './ref.ts';
import { parseRuntimeRequest, type RuntimeRequest } from '../servers/runtime-request.ts';
import { RUNTIME_NAMES, runtimeSpec } from '../servers/runtimes.ts';
import type { LaneSpec, Role } from '../bench/lanes.ts';
import { reportedPath } from '../system/paths.ts';

export type Side = 'A' | 'B';

export type Variant =
  | { kind: 'file'; raw: string; path: string }
  | { kind: 'env'; raw: string; env: Record<string, string> }
  | { kind: 'runtime'; raw: string; request: RuntimeRequest }
  | { kind: 'ref'; raw: string; ref: string; commit: string };

const KINDS: readonly AbKind[] = ['file', 'env', 'runtime', 'ref'];
const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** One --a/--b value; `resolvePath` turns a file: path into an absolute one (from where the user typed it). */
export function parseVariant(flag: string, raw: string, resolvePath: (path: string) => string): Variant {
  const colon = raw.indexOf(':');
  const kind = raw.slice(0, Math.max(colon, 0));
  const value = raw.slice(colon + 1);
  if (colon < 0 || !(KINDS as readonly string[]).includes(kind) || value === '')
    throw new FlagError(
      `--${flag} ${raw}: a variant is file:<scenario module>, env:KEY=VALUE[,KEY=VALUE], runtime:<name@version> or ref:<git ref>`,
    );
  switch (kind as AbKind) {
    case 'file': {
      const path = resolvePath(value);
      if (!existsSync(path)) throw new FlagError(`--${flag} ${raw}: no such file: ${path}`);
      return { kind: 'file', raw, path };
    }
    case 'env':
      return { kind: 'env', raw, env: parseEnv(flag, raw, value) };
    case 'runtime':
      try {
        return { kind: 'runtime', raw, request: parseRuntimeRequest(value, RUNTIME_NAMES) };
      } catch (error) {
        throw new FlagError(`--${flag} ${raw}: ${(error as Error).message.replace(/^--runtimes: /, '')}`);
      }
    case 'ref':
      return { kind: 'ref', raw, ref: value, commit: refCommit(flag, value) };
  }
}

function parseEnv(flag: string, raw: string, value: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const item of value.split(',')) {
    const eq = item.indexOf('=');
    const key = item.slice(0, Math.max(eq, 0));
    if (eq < 0 || !ENV_KEY.test(key)) throw new FlagError(`--${flag} ${raw}: "${item}" is not KEY=VALUE`);
    env[key] = item.slice(eq + 1);
  }
  return env;
}

/** Both sides of one kind, and not the same variant twice unless asked for (an A/A pair says so itself). */
export function checkPair(a: Variant, b: Variant): void {
  if (a.kind !== b.kind) throw new FlagError(`--a ${a.raw} and --b ${b.raw}: both sides must be of one kind (${a.kind}: or ${b.kind}:)`);
  if (a.kind === 'runtime' && b.kind === 'runtime' && a.request.name !== b.request.name)
    throw new FlagError(
      `--a ${a.raw} and --b ${b.raw}: a runtime: pair is two installations of one runtime (as node@24 against node@26), not two runtimes`,
    );
}

/** The scenario module of a file: variant, loaded and checked as --scenario-file is; its name. */
export async function moduleName(flag: string, variant: Extract<Variant, { kind: 'file' }>): Promise<string> {
  try {
    return (await loadScenarioFile(variant.path)).module.name;
  } catch (error) {
    if (error instanceof ScenarioError) throw new FlagError(`--${flag} ${error.message}`);
    throw error;
  }
}

export function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** A lane's label: the runtime and the side ("node-A"); no colon, so result files upload as CI artifacts. */
export function laneLabel(runtime: RuntimeName, side: Side): string {
  return `${runtime}-${side}`;
}

/** The lane role a side plays (bench/lanes.ts Role): what bench:ab's round policy finds it by. */
export const sideRole = (side: Side): Role => (side === 'A' ? 'a' : 'b');

/**
 * One side's lane on a runtime: the pinned installation with the module file or the settings
 * added, or the installation a runtime: variant names (fetched once if needed).
 */
export function sideLane(variant: Variant, runtime: RuntimeName, side: Side, log: (line: string) => void): LaneSpec {
  const label = laneLabel(runtime, side);
  const role = sideRole(side);
  switch (variant.kind) {
    case 'file':
      return { spec: { ...runtimeSpec(runtime), label }, moduleFile: variant.path, role };
    case 'env':
      return { spec: { ...runtimeSpec(runtime), label }, env: variant.env, role };
    case 'runtime':
      try {
        return { spec: { ...resolveRequest(variant.request, { log }), label }, role };
      } catch (error) {
        if (!(error instanceof FlagError)) throw error;
        throw new FlagError(`--${side.toLowerCase()} ${variant.raw}: ${error.message.replace(/^--runtimes: [^:]*: /, '')}`);
      }
    case 'ref':
      // A worktree of its own, installed first (ref.ts refSpec): not a variation of this checkout.
      throw new Error(`${variant.raw}: a ref: side's installation comes from ref.ts`);
  }
}

/** What the report records of one side (model/ab.ts); `scenario` is a file: pair's module name. */
export function sideRecord(variant: Variant, lanes: string[], scenario?: string): AbSide {
  const base = { variant: variant.raw, kind: variant.kind, lanes };
  switch (variant.kind) {
    case 'file':
      return {
        ...base,
        file: { path: reportedPath(variant.path), sha256: sha256(variant.path), ...(scenario === undefined ? {} : { scenario }) },
      };
    case 'env':
      return { ...base, env: variant.env };
    case 'runtime':
      return { ...base, runtime: variant.request.label };
    case 'ref':
      return { ...base, ref: { name: variant.ref, commit: variant.commit } };
  }
}
