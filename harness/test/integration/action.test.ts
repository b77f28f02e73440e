// The composite action (action.yml) and this repository's own gate (.github/workflows/), their
// run: steps run as a runner runs them (action-steps.ts) against a temporary git repository: a
// pull request whose module does half as much work again per request fails the step and the job
// summary says regressed; one that changes only a comment passes. Asserts what the steps did with
// the verdicts, never a timing.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/report.ts';
import { type Context, runSteps, stepsOf } from './action-steps.ts';
import { isAlive, processesMentioning } from './helpers.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
let tmp: string;
let repo: string;
const commits: Record<'base' | 'slower' | 'comment', string> = { base: '', slower: '', comment: '' };

const git = (args: string[]) =>
  execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], { cwd: repo, encoding: 'utf8' }).trim();

/** A request of fixed work (a few ms of arithmetic): `rounds` sets how much. */
const spin = (rounds: number, note = 'the work of one request') =>
  [
    `// ${note}`,
    "export const name = 'spin';",
    "export const description = 'a fixed loop';",
    "export const modes = ['sync'];",
    `export function sync() { let h = 0; for (let i = 0; i < ${rounds}; i++) h = (h * 31 + i) | 0; return { h: ${rounds} }; }`,
    '',
  ].join('\n');

function commit(module: string, message: string): string {
  writeFileSync(join(repo, 'bench/spin.mjs'), module);
  git(['add', '-A']);
  git(['commit', '-qm', message]);
  return git(['rev-parse', 'HEAD']);
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'action-it-'));
  repo = join(tmp, 'repo');
  mkdirSync(join(repo, 'bench'), { recursive: true });
  git(['init', '-q', '-b', 'main']);
  // A project with a lockfile: each side is installed with `npm ci`, as the default infers.
  writeFileSync(join(repo, 'package.json'), '{ "name": "user-service", "private": true, "type": "module" }\n');
  writeFileSync(
    join(repo, 'package-lock.json'),
    '{ "name": "user-service", "lockfileVersion": 3, "requires": true, "packages": { "": { "name": "user-service" } } }\n',
  );
  writeFileSync(join(repo, '.gitignore'), 'node_modules/\n');
  commits.base = commit(spin(400_000), 'base');
  commits.slower = commit(spin(600_000), 'half as much work again');
  git(['checkout', '-q', commits.base]);
  commits.comment = commit(spin(400_000, 'the same work, said differently'), 'a comment');
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const INPUTS = {
  modules: 'bench/spin.mjs',
  base: '',
  runtimes: 'node',
  modes: 'sync',
  budget: '',
  margin: '',
  install: '',
  profile: 'false',
  // Short runs (0.2 s: hundreds of requests of this loop) on three pairs of server processes,
  // bench:ab's minimum for a verdict and, for a change as large as the slower commit's, enough to
  // see it: no more pairs while an interval is still too wide to see the 5 % margin.
  flags: '--runs 6 --max-runs 6 --duration 0.2 --warmup 0 --min-requests 0 --cross-check none',
};

function pullRequest(head: string, name: string, inputs: Record<string, string> = INPUTS): Context {
  git(['checkout', '-q', head]);
  return {
    inputs,
    github: { event: { pull_request: { base: { sha: commits.base }, head: { sha: head } } }, run_id: '1', run_attempt: '1' },
    workspace: repo,
    actionPath: ROOT,
    temp: join(tmp, name),
  };
}

describe('action.yml, its run: steps as a runner runs them', () => {
  it('fails the step on a module doing half as much work again, the summary and the outputs saying regressed', {
    timeout: 90_000,
  }, async () => {
    const run = await runSteps(stepsOf(join(ROOT, 'action.yml')), pullRequest(commits.slower, 'slower'));
    const gate = run.steps.find((s) => s.name === 'Each module, base against head');
    expect(
      run.steps.map((s) => [s.name, s.status]),
      run.steps.map((s) => s.output).join('\n'),
    ).toEqual([
      ['Install the tool', 'ran'],
      ['Base beside head, each installed', 'ran'],
      ['Each module, base against head', 'ran'],
      // Needs GitHub: not run here, and said so.
      ['Keep the report (actions/upload-artifact@v4)', 'uses'],
    ]);
    // Each side installed from its lockfile, the base in a worktree of its own.
    const sides = run.steps[1]?.output ?? '';
    expect(sides).toContain('npm ci');
    expect(run.outputs.sides?.['base-commit']).toBe(commits.base);
    expect(gate?.output).toContain(`--a file:${join(run.outputs.sides?.['base-dir'] ?? '?', 'bench/spin.mjs')}`);
    const report = run.outputs.gate?.report ?? '';
    const json = JSON.parse(readFileSync(join(report, 'bench-spin.mjs', 'report.json'), 'utf8')) as Report;
    const [cell] = json.ab?.cells ?? [];
    expect(run.summary).toContain('### bench/spin.mjs');
    // What the pair could see is a measurement, not asserted here: a short CI run on a noisy host
    // can leave the cell unable to tell (its interval wider than the change, or rounds left out
    // while other processes used the CPU). The gate must then pass the step and say why.
    if (cell?.verdict !== 'regressed') {
      console.warn(`action.test: the cell read ${cell?.verdict}, not regressed: ${cell?.reason}`);
      expect(gate?.code, gate?.output).toBe(0);
      expect(run.outputs.gate?.verdict).toBe(cell?.verdict);
      expect(run.summary).not.toMatch(/\*\*regressed\*\*/);
      return;
    }
    expect(gate?.code, gate?.output).toBe(1);
    expect(run.outputs.gate?.verdict).toBe('regressed');
    expect(run.summary).toMatch(/\*\*regressed\*\*: [1-9]\d* regressed/);
  });

  it('passes a change to a comment alone', { timeout: 90_000 }, async () => {
    const run = await runSteps(stepsOf(join(ROOT, 'action.yml')), pullRequest(commits.comment, 'comment'));
    const gate = run.steps.find((s) => s.name === 'Each module, base against head');
    expect(gate?.code, gate?.output).toBe(0);
    expect(run.failed).toBe(false);
    expect(['unchanged', 'inconclusive', 'improved']).toContain(run.outputs.gate?.verdict);
    expect(run.summary).not.toMatch(/\*\*regressed\*\*/);
    expect(run.summary).toContain('### bench/spin.mjs');
    expect(processesMentioning(tmp).filter(isAlive)).toEqual([]);
  });
});

describe("this repository's own gate (.github/workflows/bench-gate.yml)", () => {
  it('runs bench:ab on ref: base against head; a pull request that changes no file a server reads measures nothing and passes', {
    timeout: 60_000,
  }, async () => {
    // A head commit of the same files as this checkout's (an object only, no branch moves): a pull
    // request whose changes no server reads, which the gate must pass without measuring.
    const base = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const head = execFileSync(
      'git',
      ['-c', 'user.name=test', '-c', 'user.email=test@example.com', 'commit-tree', 'HEAD^{tree}', '-p', 'HEAD', '-m', 'no server file'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    ).trim();
    const temp = join(tmp, 'own-gate');
    const run = await runSteps(stepsOf(join(ROOT, '.github/workflows/bench-gate.yml'), 'ab'), {
      inputs: {},
      github: { event: { pull_request: { number: 1, base: { sha: base }, head: { sha: head } } } },
      workspace: ROOT,
      temp,
      // This checkout is installed already; installing again would change the one the tests run in.
      skip: ['Install'],
    });
    const ab = run.steps.find((s) => s.name?.startsWith('A/B'));
    expect(ab?.status).toBe('ran');
    expect(ab?.output).toMatch(/none is measured/);
    expect(run.failed, run.steps.map((s) => `${s.name}: ${s.output}`).join('\n')).toBe(false);
    expect(run.steps.filter((s) => s.status === 'uses').map((s) => s.name)).toEqual([
      'actions/checkout@v4 (actions/checkout@v4)',
      'actions/setup-node@v4 (actions/setup-node@v4)',
      'actions/cache@v4 (actions/cache@v4)',
      'actions/upload-artifact@v4 (actions/upload-artifact@v4)',
    ]);
    expect(readFileSync(join(temp, 'step-summary.md'), 'utf8')).toBe('');
  });
});
