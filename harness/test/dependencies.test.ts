/**
 * The import rules of docs/layout.md (no circles, the floor imports nothing above it, only the
 * entry points and the docs pipeline import report/, present/ above the floor only, nothing
 * imports entry points, packages/ below harness/ and runtimes/), checked by
 * dependency-cruiser with the repo's .dependency-cruiser.cjs. A failure names the offending path.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise as depcruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { afterAll, describe, expect, it } from 'vitest';

const HARNESS = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPO = resolve(HARNESS, '..');
const CONFIG = join(REPO, '.dependency-cruiser.cjs');

/**
 * depcruise's exit code (its count of errors) and its text output, from its API in this process:
 * what its command line does (the repo's config, err-long, paths from `cwd`) without a Node
 * process and a load of dependency-cruiser and TypeScript for each cruise.
 */
async function cruise(cwd: string, paths: string[]): Promise<{ code: number; output: string }> {
  const options = await extractDepcruiseOptions(CONFIG);
  const { exitCode, output } = await depcruise(paths, { ...options, outputType: 'err-long', baseDir: cwd });
  return { code: exitCode, output: String(output) };
}

const fixtures: string[] = [];
afterAll(() => {
  for (const dir of fixtures) rmSync(dir, { recursive: true, force: true });
});

/** A tiny tree in the repo's layout: files by repo-relative path -> source. */
function fixture(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'depcruise-'));
  fixtures.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('import rules', () => {
  it('hold for harness/src, packages and runtimes', async () => {
    const { code, output } = await cruise(REPO, ['harness/src', 'packages', 'runtimes']);
    // The message is dependency-cruiser's own: rule name and the path of every offending import.
    expect(code, output).toBe(0);
  }, 120_000);

  it('fail on a circle, upward imports from the floor, report/, present/ and servers/, a feature importing report/ and an app import of the harness, naming the files', async () => {
    const root = fixture({
      'harness/src/report/merge.ts': "import { curve } from '../curve/curve.ts';\nexport const merge = curve;\n",
      'harness/src/curve/curve.ts': 'export const curve = 1;\n',
      'harness/src/load/a.ts': "import { b } from './b.ts';\nexport const a = b;\n",
      'harness/src/load/b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
      // servers/ reaching into a feature: another host must come down as a ServerHost instead.
      'harness/src/servers/server.ts': "import { start } from '../remote/remote-server.ts';\nexport const s = start;\n",
      'harness/src/remote/remote-server.ts': 'export const start = 1;\n',
      // the model knowing a renderer: the floor must know nothing above it.
      'harness/src/model/report.ts': "import { merge } from '../report/merge.ts';\nexport const report = merge;\n",
      'packages/app/src/app.ts': "import { merge } from '../../../harness/src/report/merge.ts';\nexport const app = merge;\n",
      // A feature's section reaching into report/ for a helper: only the entry points and docs/ may.
      'harness/src/ab/ab-section.ts': "import { merge } from '../report/merge.ts';\nexport const section = merge;\n",
      'harness/src/bench/bench.ts': "import { merge } from '../report/merge.ts';\nexport const bench = merge;\n",
      'harness/src/bench-cli.ts': "import { merge } from './report/merge.ts';\nexport const cli = merge;\n",
      'harness/src/docs/block-kinds.ts': "import { merge } from '../report/merge.ts';\nexport const block = merge;\n",
      // The shared words reaching up into report/.
      'harness/src/present/formats.ts': "import { merge } from '../report/merge.ts';\nexport const format = merge;\n",
    });
    const { code, output } = await cruise(root, ['harness/src', 'packages']);
    expect(code).toBeGreaterThan(0);
    expect(output).toMatch(/no-circular: harness\/src\/load\/(a|b)\.ts/);
    expect(output).toContain('report-below-servers-and-load: harness/src/report/merge.ts → harness/src/curve/curve.ts');
    expect(output).toContain('servers-and-load-below-features: harness/src/servers/server.ts → harness/src/remote/remote-server.ts');
    expect(output).toContain('floor-is-the-floor: harness/src/model/report.ts → harness/src/report/merge.ts');
    expect(output).toContain('packages-below-harness-and-runtimes: packages/app/src/app.ts → harness/src/report/merge.ts');
    expect(output).toContain('only-entry-points-import-report: harness/src/ab/ab-section.ts → harness/src/report/merge.ts');
    expect(output).toContain('only-entry-points-import-report: harness/src/bench/bench.ts → harness/src/report/merge.ts');
    expect(output).toContain('present-above-the-floor-only: harness/src/present/formats.ts → harness/src/report/merge.ts');
    // The entry points and the docs pipeline may.
    expect(output).not.toMatch(/harness\/src\/(bench-cli|docs\/block-kinds)\.ts →/);
  }, 60_000);
});
