// --measure instructions end to end on Node: one server under callgrind, a handful of requests
// counted twice; the count is positive, two rounds of the same requests agree, the report names
// the determinism settings and keeps each round's dump. Bun and Deno start under Valgrind in
// 15-60 s each on 2 cores, past this suite's budget: docs/results/instructions/ holds their counts.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePlan } from '../../src/bench/plan.ts';
import { countInstructions } from '../../src/measure/instructions.ts';
import { valgrindVersion } from '../../src/measure/valgrind.ts';
import { runtimeSpec } from '../../src/servers/runtimes.ts';
import { stopAllServers } from '../../src/servers/server.ts';
import { ended, isAlive, processesMentioning } from './helpers.ts';
import { HARNESS_NODE_ARGS } from '../harness-cli.ts';

const HARNESS = resolve(import.meta.dirname, '../..');
const hasValgrind = valgrindVersion() !== undefined;
let tmp: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'bench-instructions-'));
});
afterAll(async () => {
  await stopAllServers();
  rmSync(tmp, { recursive: true, force: true });
});

describe('--measure instructions', () => {
  it.skipIf(!hasValgrind)(
    'node under callgrind: instructions per request counted, steady across rounds, settings and dumps kept',
    {
      timeout: 120_000,
    },
    async () => {
      const out = join(tmp, 'node');
      const plan = parsePlan(['--runtimes', 'node', '--scenarios', 'hello', '--modes', 'baseline']);
      const lines: string[] = [];
      const run = await countInstructions(plan, [{ spec: runtimeSpec('node') }], {
        runDir: out,
        // Past the tier-up of the route's code, as the product's 500-request default is: under
        // Valgrind here the first few hundred requests still compile it, and after 30 the two
        // rounds read 0.3-0.75 apart, where after 400 they agree within a few per cent.
        count: { warmupRequests: 400, requests: 50, rounds: 2, concurrency: 1 },
        log: (line) => lines.push(line),
        signal: new AbortController().signal,
      });
      expect(run.lanes[0]?.status, lines.join('\n')).toBe('ok');
      expect(run.lanes[0]?.settings).toContain('--single-threaded');
      expect(run.lanes[0]?.settings).toContain('ASLR off');
      const cell = run.cells[0];
      expect(cell?.status, cell?.reason).toBe('ok');
      const [first = 0, second = 0] = cell?.rounds ?? [];
      // A trivial answer through Hono costs tens to hundreds of thousands of instructions, not none.
      expect(first).toBeGreaterThan(10_000);
      // The same requests twice: the rounds agree far closer than wall clock could.
      expect(Math.abs(first - second) / first).toBeLessThan(0.25);
      // The idle window was counted too: what the process runs by the clock, reported beside the figure.
      expect(cell?.idlePerSecond).toBeGreaterThan(0);
      expect(cell?.files).toHaveLength(3);
      for (const file of cell?.files ?? []) expect(readFileSync(join(out, file), 'utf8')).toMatch(/^totals: \d+/m);
      expect(existsSync(join(out, 'instructions/node/perf-hono.map'))).toBe(true);
      expect(processesMentioning(out).filter(isAlive)).toEqual([]);
    },
  );

  it('without Valgrind on PATH: one line saying how to get it, exit 2, nothing started', { timeout: 30_000 }, async () => {
    const child = spawn(
      process.execPath,
      [...HARNESS_NODE_ARGS, 'src/bench-cli.ts', '--measure', 'instructions', '--runtimes', 'node', '--out', join(tmp, 'none')],
      {
        cwd: HARNESS,
        env: { ...process.env, PATH: '/nonexistent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    expect(await ended(child)).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/apt-get install valgrind/);
    expect(existsSync(join(tmp, 'none'))).toBe(false);
  });
});
