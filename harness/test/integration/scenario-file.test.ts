// --scenario-file end to end: a module from outside the tree, loaded unchanged by every runtime's
// server and measured like a built-in (its answers checked across modes first); a broken module
// stopped with one line and exit 2 before any server starts.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/report.ts';
import { probeRuntime, RUNTIME_NAMES, runtimeSpec } from '../../src/servers/runtimes.ts';
import { ended } from './helpers.ts';
import { HARNESS_NODE_ARGS } from '../harness-cli.ts';

const HARNESS = resolve(import.meta.dirname, '../..');
const EXAMPLE = resolve(HARNESS, '../docs/examples/primes.ts');
const MARKDOWN_EXAMPLE = resolve(HARNESS, '../docs/examples/markdown-service');
let tmp: string;

/**
 * bench-cli as a user runs it, under tsx (a user's TypeScript module needs its loader); `plain`
 * starts it as the other tests do (harness-cli.ts), for modules in plain JavaScript, where tsx
 * would only add its start-up. Resolves with its exit code and output.
 */
function bench(argv: string[], plain = false): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const node = plain ? HARNESS_NODE_ARGS : ['--import', 'tsx'];
    const child = spawn(process.execPath, [...node, resolve(HARNESS, 'src/bench-cli.ts'), ...argv], { cwd: HARNESS });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    void ended(child).then((code) => done({ code, stdout, stderr }));
  });
}

/** Processes whose command line mentions `text` (a server started with one of this test's files). */
function processesMentioning(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmd.includes(text) && !cmd.includes('vitest')) found.push(`${pid}: ${cmd}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

function moduleFile(file: string, text: string): string {
  const path = join(tmp, file);
  writeFileSync(path, text);
  return path;
}

const data = () => ['--data-dir', join(tmp, 'data'), '--file-count', '2', '--file-size', '4096'];

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'scenario-file-it-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('bench --quick --scenario-file on node, bun and deno', () => {
  it("measures the module's sync, async and worker cells on every runtime, after checking its modes agree", async () => {
    // Answers differently in a worker thread than on the loop: the check before measuring must catch it.
    const twoFaced = moduleFile(
      'two-faced.mjs',
      "import { isMainThread } from 'node:worker_threads';\nexport const name = 'two-faced';\nexport const description = 'answers where it ran';\nexport function sync() { return { ran: isMainThread ? 'loop' : 'worker' }; }\n",
    );
    const out = join(tmp, 'run');
    // One short run a cell, no warm-up: the test asks each cell for a status and a figure, not for
    // an interval or a steady speed.
    const { code, stderr } = await bench([
      '--quick',
      '--runs',
      '1',
      '--duration',
      '0.2',
      '--warmup',
      '0',
      '--scenarios',
      'primes',
      '--scenario-file',
      EXAMPLE,
      '--scenario-file',
      twoFaced,
      ...data(),
      '--out',
      out,
    ]);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    const runtimes = RUNTIME_NAMES.filter((r) => probeRuntime(runtimeSpec(r)).ok);
    expect(report.results.map((c) => `${c.runtime}/${c.scenario}/${c.mode}`).sort()).toEqual(
      runtimes
        .flatMap((r) => ['primes/sync', 'primes/async', 'primes/worker', 'two-faced/sync', 'two-faced/worker'].map((c) => `${r}/${c}`))
        .sort(),
    );
    for (const c of report.results.filter((r) => r.scenario === 'primes')) {
      expect(c.status, `${c.runtime} ${c.mode}: ${c.reason ?? ''}`).toBe('ok');
      expect(c.requestsPerSec.median).toBeGreaterThan(0);
    }
    for (const runtime of runtimes) {
      const worker = report.results.find((c) => c.runtime === runtime && c.scenario === 'two-faced' && c.mode === 'worker');
      expect(worker?.status).toBe('invalid');
      expect(worker?.reason).toMatch(/two-faced\/worker answered \{"ran":"worker"\} but \/two-faced\/sync answered \{"ran":"loop"\}/);
    }
    // The report names the module, its description and its file (from the repository's root, where
    // it lies), after the built-ins' order.
    expect(report.parameters.scenarios?.map((s) => s.name)).toEqual(['primes', 'two-faced']);
    expect(report.parameters.scenarios?.[0]).toMatchObject({
      description: expect.stringMatching(/primes/),
      file: 'docs/examples/primes.ts',
    });
    expect(processesMentioning(tmp)).toEqual([]);
  }, 180_000);

  it("imports the module's npm dependency from its own project, in TypeScript, swept over its input, on every runtime", async () => {
    // The example project as a user has it after `npm install` there: node_modules beside its
    // package.json, one folder above the module. The dependency is copied from this repository's
    // own install (the same pinned version), so the test needs no registry.
    const project = join(tmp, 'markdown-service');
    cpSync(MARKDOWN_EXAMPLE, project, { recursive: true });
    const marked = dirname(createRequire(import.meta.url).resolve('marked/package.json'));
    cpSync(marked, join(project, 'node_modules', 'marked'), { recursive: true, dereference: true });
    const out = join(tmp, 'markdown-run');
    const { code, stderr } = await bench([
      ...['--quick', '--runs', '1', '--duration', '0.2', '--warmup', '0'],
      ...['--scenario-file', join(project, 'src', 'render.ts'), '--sweep', 'markdown:sections=10,50'],
      ...data(),
      '--out',
      out,
    ]);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    const runtimes = RUNTIME_NAMES.filter((r) => probeRuntime(runtimeSpec(r)).ok);
    const cells = report.results.filter((c) => c.scenario === 'markdown');
    // sync and worker at each of the two sizes, on every runtime, each checked before it was timed.
    expect(cells.map((c) => `${c.runtime} ${c.mode} ${c.query}`).sort()).toEqual(
      runtimes.flatMap((r) => ['sync', 'worker'].flatMap((m) => [10, 50].map((n) => `${r} ${m} sections=${n}`))).sort(),
    );
    for (const c of cells) expect(c.status, `${c.runtime} ${c.mode} ${c.query}: ${c.reason ?? ''}`).toBe('ok');
    expect(processesMentioning(project)).toEqual([]);
  }, 180_000);

  it.each<[string, string, RegExp]>([
    [
      'no-sync.mjs',
      "export const name = 'nosync';\nexport const description = 'x';\n",
      /no-sync\.mjs: export function sync\(input\) is missing; it is required$/,
    ],
    [
      'clash.mjs',
      "export const name = 'fib';\nexport const description = 'x';\nexport function sync() { return 1; }\n",
      /clash\.mjs: name "fib" is already taken by a built-in scenario$/,
    ],
    ['broken.mjs', 'export const name = ;\n', /broken\.mjs: does not load: /],
    [
      'setup-throws.mjs',
      "export const name = 'setup-throws';\nexport const description = 'x';\nexport function sync() { return 1; }\nexport async function setup() { throw new Error('no database here'); }\n",
      /setup-throws\.mjs: setup\(\) threw: no database here$/,
    ],
  ])(
    '%s: one line naming the file and the rule, exit 2, nothing started',
    async (file, text, message) => {
      const path = moduleFile(file, text);
      const { code, stdout, stderr } = await bench(
        ['--quick', '--scenario-file', path, ...data(), '--out', join(tmp, `out-${file}`)],
        true,
      );
      expect(code).toBe(2);
      const lines = stderr.trim().split('\n');
      expect(lines, stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^bench: /);
      expect(lines[0]).toMatch(message);
      expect(stdout).toBe('');
      expect(processesMentioning(path)).toEqual([]);
    },
    60_000,
  );
});
