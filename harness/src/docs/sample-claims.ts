/**
 * A sentence that speaks for every sample on its page ("every sample on this page ran on AMD EPYC
 * with Node 26.12.1 servers") is held against the samples its blocks render: each must record the
 * machine and versions named, and record them alike. A sample that does not record them (an A/A
 * pair's comparison keeps neither) cannot back the claim either.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { proseSentences, RUNTIME_VERSION } from './prose-figures.ts';
import { findBlocks } from './result-blocks.ts';

type Sample = { file: string; cpu?: string; versions: Record<string, string> };

const CPU_NAMES = ['AMD EPYC', 'Intel'];

function readSample(root: string, file: string): Sample {
  const json = JSON.parse(readFileSync(join(root, file), 'utf8')) as {
    environment?: { cpu?: { model?: string } };
    runtimes?: { name: string; label?: string; version?: string; status?: string }[];
  };
  const versions: Record<string, string> = {};
  // A lane asked for by version (node@22) is meant to differ; the default lanes speak for the pins.
  for (const r of json.runtimes ?? [])
    if (r.status === 'ok' && r.version !== undefined && !(r.label ?? '').includes('@')) versions[r.name] = r.version;
  return { file, cpu: json.environment?.cpu?.model, versions };
}

/** Every report a block reads: its source (a file, or each report.json below a folder) and `other=`. */
function blockSamples(root: string, params: Record<string, string>): Sample[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir)).sort()) {
      const path = `${dir.replace(/\/$/, '')}/${name}`;
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (name === 'report.json') files.push(path);
    }
  };
  for (const source of [params.source, params.other]) {
    if (source === undefined || !existsSync(join(root, source))) continue;
    if (source.endsWith('/')) walk(source);
    else files.push(source);
  }
  return files.map((file) => readSample(root, file));
}

export interface SampleClaim {
  line: number;
  claim: string;
  /** The samples that do not back it, each with why. */
  against: string[];
}

/** Sentences about every sample whose named machine or versions some sample of the page does not record. */
export function everySampleClaims(markdown: string, root: string): SampleClaim[] {
  const samples = findBlocks(markdown).flatMap((b) => blockSamples(root, b.params));
  const out: SampleClaim[] = [];
  for (const { line, text } of proseSentences(markdown)) {
    if (!/\b(?:every|each|all(?: the)?)\s+(?:committed\s+)?samples?\b/i.test(text)) continue;
    const cpus = CPU_NAMES.filter((name) => text.includes(name));
    const versions = [...text.matchAll(RUNTIME_VERSION)].map((m) => ({ runtime: (m[1] ?? '').toLowerCase(), version: m[2] ?? '' }));
    if (cpus.length === 0 && versions.length === 0) continue;
    const against = samples.flatMap((s) => [
      ...cpus
        .filter((cpu) => !(s.cpu ?? '').includes(cpu))
        .map((cpu) => `${s.file}: ${s.cpu === undefined ? 'records no machine' : s.cpu}, not ${cpu}`),
      ...versions
        .filter((v) => s.versions[v.runtime] !== v.version)
        .map(
          (v) =>
            `${s.file}: ${s.versions[v.runtime] === undefined ? `records no ${v.runtime}` : `${v.runtime} ${s.versions[v.runtime]}`}, not ${v.version}`,
        ),
    ]);
    if (against.length > 0) out.push({ line, claim: text.trim(), against });
  }
  return out;
}
