/**
 * docs/ci-gate.md's workflow is meant to be saved and run as it is: it must parse as YAML, keep
 * both commits in the clone, and call only commands and formats this repository has, with the
 * pnpm it pins. A renamed script or export format fails here, not in a user's pull request.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { EXPORT_FORMATS } from '../src/report/export-formats.ts';

const root = join(import.meta.dirname, '..', '..');
const page = readFileSync(join(root, 'docs', 'ci-gate.md'), 'utf8');
const rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  packageManager: string;
  scripts: Record<string, string>;
};

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  if?: string;
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, { steps: Step[] }>;
}

function workflow(): Workflow {
  const block = /## The workflow[\s\S]*?```yaml\n([\s\S]*?)```/.exec(page)?.[1];
  if (block === undefined) throw new Error('docs/ci-gate.md has no yaml block under "## The workflow"');
  return parse(block) as Workflow;
}

describe('the workflow in docs/ci-gate.md', () => {
  const parsed = workflow();
  const steps = Object.values(parsed.jobs).flatMap((job) => job.steps);
  const runs = steps.flatMap((s) => (s.run === undefined ? [] : s.run.split('\n')));

  it('runs on a pull request with both commits in the clone, and keeps the report whether the gate passes or not', () => {
    expect(Object.keys(parsed.on)).toContain('pull_request');
    expect(steps.find((s) => s.uses?.startsWith('actions/checkout@'))?.with).toMatchObject({ 'fetch-depth': 0 });
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(upload).toMatchObject({ if: 'always()', with: { path: 'ab/' } });
  });

  it("measures the pull request's base against its head with bench:ab, and fails the job on its exit code", () => {
    const ab = steps.find((s) => s.run?.includes('bench:ab'))?.run ?? '';
    expect(ab).toMatch(/--a ref:\$\{\{ github\.event\.pull_request\.base\.sha \}\}/);
    expect(ab).toMatch(/--b ref:\$\{\{ github\.event\.pull_request\.head\.sha \}\}/);
    expect(ab).toContain('echo "code=$?" >> "$GITHUB_OUTPUT"');
    expect(steps.at(-1)?.run).toMatch(/^exit \$\{\{ steps\.ab\.outputs\.code \}\}$/);
  });

  it('calls only the pnpm this repository pins, its own scripts and export formats it has', () => {
    const pnpm = runs.flatMap((line) => [...line.matchAll(/pnpm@([\d.]+)/g)].map((m) => `pnpm@${m[1]}`));
    expect(pnpm.length).toBeGreaterThan(3);
    for (const version of pnpm) expect(version).toBe(rootPackage.packageManager);
    const scripts = runs.flatMap((line) => [...line.matchAll(/--silent (bench:\w+)/g)].map((m) => m[1] ?? ''));
    expect(scripts).toEqual(expect.arrayContaining(['bench:ab', 'bench:report']));
    for (const script of scripts) expect(Object.keys(rootPackage.scripts), script).toContain(script);
    const formats = runs.flatMap((line) => [...line.matchAll(/--format ([\w-]+)/g)].map((m) => m[1] ?? ''));
    expect(formats).toEqual(['github-action-benchmark', 'bmf']);
    for (const format of formats) expect(EXPORT_FORMATS).toContain(format);
  });

  it('caches the pnpm store and the runtime installations between runs', () => {
    const cache = steps.find((s) => s.uses?.startsWith('actions/cache@'));
    expect(String(cache?.with?.path)).toMatch(/steps\.pnpm\.outputs\.store[\s\S]*data\/runtimes/);
    expect(String(cache?.with?.key)).toContain("hashFiles('pnpm-lock.yaml')");
  });
});
