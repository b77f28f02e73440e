/**
 * Versions of one runtime side by side: per cell, each installation's requests/s, p99 and probe
 * p99 against a baseline installation of the same runtime, with Welch's test over the runs as
 * `bench:compare` does between two reports (its compareCell and compareMetric, same rules).
 */
import type { RuntimeName } from '@bench/app';
import { compareCell, compareMetric, DEFAULT_ALPHA, DEFAULT_THRESHOLD, LATENCY_RESOLUTION_MS, type Verdict } from '../compare/compare.ts';
import type { VersionChange, VersionComparison } from '../model/change.ts';
import type { CellResult } from '../model/cell.ts';
import type { RuntimeEntry } from '../model/report.ts';
import { compareVersions } from '../servers/runtime-request.ts';

export type { VersionChange, VersionComparison };

/**
 * The baseline of each runtime that has several installations: the one named (--baseline) when
 * it is of that runtime, else the oldest version measured.
 */
export function versionBaselines(entries: readonly RuntimeEntry[], named?: string): Partial<Record<RuntimeName, string>> {
  const out: Partial<Record<RuntimeName, string>> = {};
  const labelled = entries.filter((e) => e.label !== undefined && e.status !== 'skipped' && e.version !== '');
  for (const name of new Set(labelled.map((e) => e.name))) {
    const mine = labelled.filter((e) => e.name === name);
    if (mine.length < 2) continue;
    const chosen = mine.find((e) => e.label === named) ?? [...mine].sort((a, b) => compareVersions(a.version, b.version))[0];
    if (chosen?.label !== undefined) out[name] = chosen.label;
  }
  return out;
}

function worst(verdicts: readonly Verdict[]): Verdict {
  return (['regressed', 'improved', 'not-testable'] as const).find((v) => verdicts.includes(v)) ?? 'unchanged';
}

export function compareInstallations(
  results: readonly CellResult[],
  entries: readonly RuntimeEntry[],
  named?: string,
  threshold = DEFAULT_THRESHOLD,
  alpha = DEFAULT_ALPHA,
): VersionComparison | undefined {
  const baselines = versionBaselines(entries, named);
  if (Object.keys(baselines).length === 0) return undefined;
  const changes: VersionChange[] = [];
  for (const cell of results) {
    const base = baselines[cell.runtime];
    if (base === undefined || cell.runtimeLabel === undefined || cell.runtimeLabel === base) continue;
    const ref = results.find((c) => c.runtimeLabel === base && c.scenario === cell.scenario && c.mode === cell.mode);
    if (ref === undefined) continue;
    const head = {
      runtime: cell.runtime,
      scenario: cell.scenario,
      mode: cell.mode,
      baseline: { label: base, version: ref.runtimeVersion ?? '' },
      current: { label: cell.runtimeLabel, version: cell.runtimeVersion ?? '' },
    };
    const compared = compareCell(ref, cell, threshold, alpha);
    if (compared.kind === 'not-compared') {
      const sides = [[base, ref] as const, [cell.runtimeLabel, cell] as const].filter(([, c]) => c.status !== 'ok');
      changes.push({ ...head, reason: sides.map(([label, c]) => `${label} ${c.status}`).join(', ') });
      continue;
    }
    const probeP99 = compareMetric(
      ref.runDetails.map((r) => r.probeLatencyMs.p99),
      cell.runDetails.map((r) => r.probeLatencyMs.p99),
      [ref.probeLatencyMs.p99, cell.probeLatencyMs.p99],
      { threshold, alpha, worse: 'higher', minAbsolute: LATENCY_RESOLUTION_MS },
    );
    changes.push({
      ...head,
      throughput: compared.throughput,
      p99: compared.p99,
      probeP99,
      verdict: worst([compared.throughput.verdict, compared.p99.verdict, probeP99.verdict]),
    });
  }
  return { baselines, threshold, alpha, changes };
}
