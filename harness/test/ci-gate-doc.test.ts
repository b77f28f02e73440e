/**
 * The gates as a user and this repository run them: the steps docs/ci-gate.md tells a user to add
 * must name the action's own inputs; this repository's workflow (.github/workflows/bench-gate.yml)
 * must keep both commits in the clone and call only commands and formats this repository has,
 * with the pnpm it pins. A renamed script, input or export format fails here, not in a pull request.
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
  return parse(readFileSync(join(root, '.github/workflows/bench-gate.yml'), 'utf8')) as Workflow;
}

describe("docs/ci-gate.md's first YAML, the steps a user adds", () => {
  const block = /```yaml\n([\s\S]*?)```/.exec(page)?.[1] ?? '';
  const steps = parse(block) as Step[];
  const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as { inputs: Record<string, { required?: boolean }> };

  it('is six lines: a checkout, then this action with every input it requires and only inputs it has', () => {
    expect(block.trim().split('\n')).toHaveLength(6);
    expect(steps[0]?.uses).toMatch(/^actions\/checkout@/);
    const gate = steps[1] ?? {};
    expect(gate.uses).toMatch(/\/sync-async-bench@/);
    const given = Object.keys(gate.with ?? {});
    for (const name of given) expect(Object.keys(action.inputs), name).toContain(name);
    for (const [name, input] of Object.entries(action.inputs)) if (input.required === true) expect(given).toContain(name);
  });
});

describe("this repository's own gate, .github/workflows/bench-gate.yml", () => {
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
