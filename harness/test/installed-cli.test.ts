// The installed command and the action's steps, their pure parts: every `pnpm bench:*` script has a
// command of the same entry point and arguments; a project's install command comes from its
// lockfile; the job summary takes the A/B section of a report and one word over every module.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const json = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as { scripts: Record<string, string> };

interface Command {
  file: string;
  args?: string[];
  load?: boolean;
}
const bin = (await import(join(ROOT, 'bin/sync-async-bench.mjs'))) as {
  COMMANDS: Record<string, Command>;
  commandLine(argv: string[], cwd?: string): { args?: string[]; env?: Record<string, string>; error?: string; usage?: boolean };
};
const gate = (await import(join(ROOT, 'scripts/action-gate.mjs'))) as {
  installCommand(dir: string, given?: string): string;
  moduleList(raw: string): string[];
  abSection(markdown: string): string;
  overallVerdict(counts: Record<string, number>, codes: number[]): string;
};

const tmp = mkdtempSync(join(tmpdir(), 'installed-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('sync-async-bench, the installed command', () => {
  it('mirrors every bench:* script: the same entry point, the arguments the script adds, the open-files limit raised where the script raises it', () => {
    const root = json('package.json').scripts;
    const harness = json('harness/package.json').scripts;
    for (const [script, line] of Object.entries(root).filter(([name]) => name.startsWith('bench:'))) {
      const [, harnessScript, ...added] = /run (\w+)(.*)$/.exec(line) ?? [];
      const target = harness[harnessScript ?? ''] ?? '';
      const name = script.slice('bench:'.length);
      // bench:all and the one-runtime scripts are `bench` with --runtimes.
      const command = bin.COMMANDS[['all', 'node', 'bun', 'deno'].includes(name) ? 'bench' : name];
      expect(command, script).toBeDefined();
      expect(target, script).toContain(`src/${command?.file}`);
      const extra = (added[0] ?? '')
        .trim()
        .split(/\s+/)
        .filter((a) => a !== '' && !(a === '--runtimes' || ['node', 'bun', 'deno'].includes(a)));
      expect(command?.args ?? [], script).toEqual(extra);
      expect(command?.load === true, script).toBe(target.includes('ulimit -n'));
    }
  });

  it('reads paths from the folder it is typed in and writes runs under its ./bench-results, whatever INIT_CWD an outer runner set', () => {
    const line = bin.commandLine(['ab', '--a', 'file:x.ts'], '/home/user/service');
    expect(line.env).toMatchObject({ INIT_CWD: '/home/user/service' });
    if (process.env.BENCH_RESULTS_ROOT === undefined) expect(line.env?.BENCH_RESULTS_ROOT).toBe('/home/user/service/bench-results');
    expect(line.args?.slice(-3)).toEqual([join(ROOT, 'harness/src/ab-cli.ts'), '--a', 'file:x.ts']);
    expect(bin.commandLine(['nope']).error).toMatch(/^unknown command "nope"; usage: sync-async-bench </);
    expect(bin.commandLine([]).usage).toBe(true);
  });
});

describe("the action's steps", () => {
  it('installs each side as its lockfile says, the install input first', () => {
    const project = (files: string[]) => {
      const dir = mkdtempSync(join(tmp, 'p-'));
      for (const file of files) writeFileSync(join(dir, file), '');
      return dir;
    };
    expect(gate.installCommand(project(['package.json', 'package-lock.json']))).toBe('npm ci --no-audit --no-fund');
    expect(gate.installCommand(project(['package.json', 'pnpm-lock.yaml']))).toMatch(/pnpm(@[\d.]+)? install --frozen-lockfile$/);
    expect(gate.installCommand(project(['package.json', 'yarn.lock']))).toMatch(/yarn install$/);
    expect(gate.installCommand(project(['package.json', 'bun.lock']))).toMatch(/bun install --frozen-lockfile$/);
    expect(gate.installCommand(project(['package.json']))).toBe('npm install --no-audit --no-fund');
    expect(gate.installCommand(project([]))).toBe('');
    expect(gate.installCommand(project(['package-lock.json']), 'make deps')).toBe('make deps');
  });

  it('takes modules one a line or comma-separated, and the A/B section of a report for the summary', () => {
    expect(gate.moduleList(' a.ts,\nb/c.ts \n\n')).toEqual(['a.ts', 'b/c.ts']);
    expect(gate.abSection('# Title\n\n## A/B\n\n| cell | verdict |\n\n## Runs\n\nmore')).toBe('| cell | verdict |');
    // What A and B were and the method, folded under the verdicts.
    expect(gate.abSection('## A/B\n\n| cell | verdict |\n\nA: `file:a.ts`\nB: `file:b.ts`\n\nhow\n## Runs')).toBe(
      '| cell | verdict |\n\n<details><summary>What A and B were, how they were measured</summary>\n\nA: `file:a.ts`\nB: `file:b.ts`\n\nhow\n\n</details>',
    );
    expect(gate.abSection('# Title\n\n## Runs\n')).toBe('');
  });

  it('says one word over every module, the worst, and error on bad input', () => {
    const counts = (regressed: number, inconclusive: number, improved: number, unchanged: number) => ({
      regressed,
      inconclusive,
      improved,
      unchanged,
    });
    expect(gate.overallVerdict(counts(1, 1, 1, 1), [1, 0])).toBe('regressed');
    expect(gate.overallVerdict(counts(0, 1, 1, 1), [0])).toBe('inconclusive');
    expect(gate.overallVerdict(counts(0, 0, 1, 1), [0])).toBe('improved');
    expect(gate.overallVerdict(counts(0, 0, 0, 2), [0, 0])).toBe('unchanged');
    // B failing a cell A measured exits 1 without a regressed cell: the gate failed, and says so.
    expect(gate.overallVerdict(counts(0, 1, 0, 0), [1])).toBe('regressed');
    expect(gate.overallVerdict(counts(0, 0, 0, 0), [2])).toBe('error');
  });
});
