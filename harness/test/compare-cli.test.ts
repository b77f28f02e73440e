import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandError } from '../src/cli/command.ts';
import { compareMain } from '../src/compare-main.ts';
import type { Report } from '../src/model/report.ts';
import { cellOf, HASH_ASYNC, HASH_SYNC } from './fixtures/compare/reports.ts';
import { makeReport } from './fixtures.ts';
import { HARNESS_NODE_ARGS, thrownBy } from './harness-cli.ts';

const HARNESS = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(HARNESS, 'src', 'compare-cli.ts');

interface Outcome {
  status: number | null;
  stdout: string;
  stderr: string;
}

function runCli(...args: string[]): Outcome {
  // No INIT_CWD: when the suite runs under pnpm, it would point relative paths elsewhere.
  const { INIT_CWD: _ignored, ...env } = process.env;
  const result = spawnSync(process.execPath, [...HARNESS_NODE_ARGS, CLI, ...args], {
    cwd: HARNESS,
    encoding: 'utf8',
    env,
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** stderr minus the trailing newline, as lines: the CLI promises exactly one. */
function stderrLines(outcome: Outcome): string[] {
  return outcome.stderr.trimEnd().split('\n');
}

/**
 * A refusal read in-process from what the command runs (compareMain), as lines: a CommandError's
 * message is what the command prints after "compare: " as its one line on stderr before it exits 2
 * (the missing file's test below starts the command and sees it do so).
 */
function refusalLines(...args: string[]): string[] {
  const refusal = thrownBy(() => compareMain(args));
  expect(refusal).toBeInstanceOf(CommandError);
  return (refusal as Error).message.split('\n');
}

describe('compare-cli', () => {
  let dir: string;
  const file = (name: string): string => join(dir, name);
  const write = (name: string, content: Report | string): string => {
    writeFileSync(file(name), typeof content === 'string' ? content : JSON.stringify(content));
    return file(name);
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'compare-cli-'));
    write('baseline.json', makeReport([cellOf(HASH_SYNC, [1000, 1010, 990]), cellOf(HASH_ASYNC, [2000, 2010, 1990])]));
    write('regressed.json', makeReport([cellOf(HASH_SYNC, [800, 810, 790]), cellOf(HASH_ASYNC, [2000, 2010, 1990])]));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 1 and prints the table when a cell regressed', () => {
    const outcome = runCli(file('baseline.json'), file('regressed.json'));
    expect(outcome.status).toBe(1);
    expect(outcome.stdout).toContain('**✗ 1 regression, 0 improvements, 0 no change, 1 could not tell (could not see ±5 %)**');
    expect(outcome.stdout).toMatch(/\| node +\| hash +\| sync +\| +1,000 → 800 \| \*\*-20\.0 % \(-28\.9 % to -10\.0 %\)\*\* \| <0\.001 \|/);
    expect(outcome.stderr).toBe('');
  });

  it('exits 0 for identical reports', () => {
    const outcome = runCli(file('baseline.json'), file('baseline.json'));
    expect(outcome.status).toBe(0);
    // Two separate sessions that measured nothing of their host: what they could see, not a green check.
    expect(outcome.stdout).toContain('found, and two separate sessions cannot see less; use bench:ab');
    expect(outcome.stdout).toContain('(0 regressions, 0 improvements, 0 no change, 2 could not tell (could not see ±5 %))');
  });

  it('exits 0 when the change is within --threshold, and writes --out', () => {
    const out = file('comparison.md');
    const outcome = runCli(file('baseline.json'), file('regressed.json'), '--threshold', '25%', '--out', out);
    expect(outcome.status).toBe(0);
    expect(outcome.stdout).toContain('margins ±25 % (hello ±50 %, p99 ±100 %) with 95 % confidence');
    expect(readFileSync(out, 'utf8')).toBe(outcome.stdout);
  });

  it('takes a run folder for the report.json in it, and names a folder without one', () => {
    mkdirSync(file('run-a'));
    copyFileSync(file('baseline.json'), join(file('run-a'), 'report.json'));
    const outcome = runCli(file('run-a'), file('regressed.json'));
    expect(outcome.status).toBe(1);
    expect(outcome.stdout).toContain('**✗ 1 regression, 0 improvements, 0 no change, 1 could not tell (could not see ±5 %)**');
    mkdirSync(file('empty-run'));
    expect(refusalLines(file('empty-run'), file('regressed.json'))).toEqual([
      `cannot read the baseline report ${join(file('empty-run'), 'report.json')}: ENOENT`,
    ]);
  });

  it('exits 2 with one line on stderr for a missing file', () => {
    const outcome = runCli(file('baseline.json'), file('missing.json'));
    expect(outcome.status).toBe(2);
    expect(stderrLines(outcome)).toEqual([`compare: cannot read the current report ${file('missing.json')}: ENOENT`]);
    expect(outcome.stdout).toBe('');
  });

  it('refuses in one line invalid JSON, another schema version, or something else', () => {
    const broken = refusalLines(file('baseline.json'), write('broken.json', '{"schemaVersion": 1,'));
    expect(broken).toHaveLength(1);
    expect(broken[0]).toContain('is not valid JSON');

    const v2 = refusalLines(file('baseline.json'), write('v2.json', { ...makeReport([]), schemaVersion: 2 } as unknown as Report));
    expect(v2).toEqual(['schema versions differ (baseline 1, current 2): refusing to compare']);

    const other = refusalLines(file('baseline.json'), write('other.json', '{"schemaVersion": 1, "hello": "world"}'));
    expect(other).toHaveLength(1);
    expect(other[0]).toContain('is not a benchmark report: no environment object');

    const stray = refusalLines(write('stray.json', '[1, 2]'), file('baseline.json'));
    expect(stray).toEqual([`the baseline report ${file('stray.json')} is not a benchmark report: not a JSON object`]);
  });

  it('refuses bad usage in one line', () => {
    for (const args of [
      [file('baseline.json')],
      [file('baseline.json'), file('baseline.json'), '--threshold', '5'],
      ['--nope', 'a', 'b'],
    ]) {
      expect(refusalLines(...args)).toHaveLength(1);
    }
  });
});
