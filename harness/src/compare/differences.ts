/**
 * What makes two reports less than like-for-like: their parameters, environments and runtime
 * versions, field by field. Pure.
 */
import type { RuntimeName } from '@bench/app';
import type { Report } from '../model/report.ts';

export type Plain = string | number | boolean | null;

export interface FieldDifference {
  field: string;
  baseline: Plain;
  current: Plain;
}

export interface RuntimeVersionDifference {
  runtime: RuntimeName;
  /** null when the runtime is not in that report. */
  baseline: string | null;
  current: string | null;
}

/** JSON-safe primitive for display; objects (a future parameter) as their JSON text. */
function plain(value: unknown): Plain {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

function differences(fields: readonly [string, unknown, unknown][]): FieldDifference[] {
  return fields
    .filter(([, b, c]) => JSON.stringify(b) !== JSON.stringify(c))
    .map(([field, b, c]) => ({ field, baseline: plain(b), current: plain(c) }));
}

/** Every parameter of either report (new ones are added freely), baseline's order first. */
export function parameterDifferences(baseline: Report, current: Report): FieldDifference[] {
  const b = baseline.parameters as unknown as Record<string, unknown>;
  const c = current.parameters as unknown as Record<string, unknown>;
  const names = [...new Set([...Object.keys(b), ...Object.keys(c)])];
  return differences(names.map((name) => [name, b[name], c[name]]));
}

export function environmentDifferences(baseline: Report, current: Report): FieldDifference[] {
  const fields = (r: Report): [string, unknown][] => [
    ['os', r.environment.os],
    ['kernel', r.environment.kernel],
    ['cpu model', r.environment.cpu.model],
    ['cpu count', r.environment.cpu.count],
    ['memory bytes', r.environment.memoryBytes],
    ['commit', r.environment.commit],
    ['dirty', r.environment.dirty],
    ['load generator', `${r.environment.loadGenerator.name} ${r.environment.loadGenerator.version}`],
    ['harness node', r.environment.harnessNode],
    // --server-host: a remote report against a local one (or another server host) is a different set-up.
    [
      'server host',
      r.environment.serverHost === undefined
        ? 'the load host'
        : `${r.environment.serverHost.host} (${r.environment.serverHost.cpu.model} × ${r.environment.serverHost.cpu.count})`,
    ],
    ['HTTP round trip ms', r.environment.network?.httpRttMs?.median ?? r.environment.network?.rttMs?.median],
    ['TCP connect ms', r.environment.network?.tcpConnectMs?.fromLoadHost?.median],
  ];
  const c = fields(current);
  return differences(fields(baseline).map(([field, value], i) => [field, value, c[i]?.[1]]));
}

export function runtimeVersionDifferences(baseline: Report, current: Report): RuntimeVersionDifference[] {
  const version = (r: Report, name: RuntimeName): string | null => r.runtimes.find((e) => e.name === name)?.version ?? null;
  const names = [...new Set([...baseline.runtimes, ...current.runtimes].map((r) => r.name))];
  return names
    .map((runtime) => ({ runtime, baseline: version(baseline, runtime), current: version(current, runtime) }))
    .filter((d) => d.baseline !== d.current);
}
