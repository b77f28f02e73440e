import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { changedFiles, refScope, scopeWords } from '../src/ab/ref-scope.ts';

const KNOWN = ['hello', 'hash', 'file', 'fib', 'sleep', 'kdf'];
const M = (path: string) => ({ status: 'M', path });

describe('refScope', () => {
  it('reaches no server when the commits differ only in the harness, docs, tests and tooling', () => {
    const scope = refScope(
      [
        M('harness/src/ab/ab-verdict.ts'),
        M('docs/ab.md'),
        M('README.md'),
        M('packages/app/test/app.test.ts'),
        M('runtimes/deno/test/deno.test.ts'),
        M('packages/app/vitest.config.ts'),
        M('.ci/run'),
        M('biome.json'),
      ],
      KNOWN,
    );
    expect(scope).toEqual({ files: 8, serverFiles: [], scenarios: [], oneSided: [] });
    expect(scopeWords(scope, 'a and b')).toMatch(/^a and b differ in 8 files, none of them read by a server .*none is measured/);
  });

  it('reaches only the scenarios whose modules alone differ', () => {
    const scope = refScope([M('packages/app/src/scenarios/hash.ts'), M('packages/app/src/scenarios/kdf.ts'), M('docs/ab.md')], KNOWN);
    expect(scope).toEqual({
      files: 3,
      serverFiles: ['packages/app/src/scenarios/hash.ts', 'packages/app/src/scenarios/kdf.ts'],
      scenarios: ['hash', 'kdf'],
      oneSided: [],
    });
    expect(scopeWords(scope, 'a and b')).toBe(
      'a and b differ, for the servers, only in packages/app/src/scenarios/hash.ts, packages/app/src/scenarios/kdf.ts: measuring hash, kdf (--scenarios names others)',
    );
  });

  it('reaches every cell through anything else a server reads, or a file it does not know', () => {
    for (const path of [
      'packages/app/src/app.ts',
      'packages/app/src/workloads/scenario-pool.ts',
      'runtimes/node/server.ts',
      'pnpm-lock.yaml',
      'package.json',
      'new-config.toml',
      // A module the harness does not plan: not a scenario it can measure on its own.
      'packages/app/src/scenarios/unknown.ts',
    ]) {
      const scope = refScope([M('packages/app/src/scenarios/hash.ts'), M(path)], KNOWN);
      expect(scope.scenarios, path).toBeUndefined();
      expect(scope.serverFiles, path).toContain(path);
    }
  });

  it('leaves out a scenario module one commit lacks, and measures nothing when that is all that differs', () => {
    const added = refScope([{ status: 'A', path: 'packages/app/src/scenarios/kdf.ts' }], KNOWN);
    expect(added).toMatchObject({ scenarios: [], oneSided: ['kdf'] });
    expect(scopeWords(added, 'a and b')).toMatch(/only in scenario modules; kdf is in one commit only: .*no cell is measured/);
    const both = refScope([{ status: 'D', path: 'packages/app/src/scenarios/kdf.ts' }, M('packages/app/src/scenarios/fib.ts')], KNOWN);
    expect(both).toMatchObject({ scenarios: ['fib'], oneSided: ['kdf'] });
  });
});

describe('changedFiles', () => {
  const repo = mkdtempSync(join(tmpdir(), 'ref-scope-'));
  afterAll(() => rmSync(repo, { recursive: true, force: true }));
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      ['-c', 'init.defaultBranch=main', '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args],
      {
        cwd: repo,
        encoding: 'utf8',
      },
    ).trim();
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  };
  const commit = () => {
    git('add', '-A');
    git('commit', '-q', '-m', 'x');
    return git('rev-parse', 'HEAD');
  };

  it('lists what two commits differ in, a rename as a removal and an addition', () => {
    git('init', '-q');
    write('docs/a.md', 'a');
    write('packages/app/src/scenarios/hash.ts', 'export const name = "hash";');
    write('packages/app/src/scenarios/fib.ts', 'export const name = "fib";');
    const first = commit();
    write('docs/a.md', 'b');
    unlinkSync(join(repo, 'packages/app/src/scenarios/fib.ts'));
    write('packages/app/src/scenarios/fib2.ts', 'export const name = "fib";');
    write('harness/x.ts', '1');
    const second = commit();
    expect(changedFiles(first, second, repo)).toEqual([
      { status: 'M', path: 'docs/a.md' },
      { status: 'A', path: 'harness/x.ts' },
      { status: 'D', path: 'packages/app/src/scenarios/fib.ts' },
      { status: 'A', path: 'packages/app/src/scenarios/fib2.ts' },
    ]);
    expect(changedFiles(second, second, repo)).toEqual([]);
  });
});

describe("the ref: self-test's patches (docs/ab.md)", () => {
  const repo = resolve(import.meta.dirname, '../..');
  for (const patch of ['hash-5pct.patch', 'hash-comment.patch']) {
    it(`${patch} applies to this checkout and reaches the hash scenario alone`, () => {
      const file = join(repo, 'docs/examples/ab', patch);
      execFileSync('git', ['apply', '--check', file], { cwd: repo });
      const touched = execFileSync('git', ['apply', '--numstat', file], { cwd: repo, encoding: 'utf8' })
        .trim()
        .split('\n')
        .map((line) => ({ status: 'M', path: line.split('\t')[2] ?? '' }));
      expect(refScope(touched, ['hello', 'hash', 'file'])).toMatchObject({ scenarios: ['hash'] });
    });
  }
});

describe('the catalogue', () => {
  it("names each scenario module's file after the scenario, as refScope reads it", async () => {
    const dir = resolve(import.meta.dirname, '../../packages/app/src/scenarios');
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const mod = (await import(pathToFileURL(join(dir, file)).href)) as { name: string };
      expect(mod.name, file).toBe(basename(file, '.ts'));
    }
  });
});
