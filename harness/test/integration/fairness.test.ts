// Answers per connection, counted by each runtime's server: they add up to the route's count,
// one entry per load connection, and a server that serves its connections in turn scores near 1.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataFiles } from '@bench/app';
import { runLoad } from '../../src/load/autocannon.ts';
import { RUNTIME_NAMES, runtimeSpec } from '../../src/servers/runtimes.ts';
import { startServer, stopAllServers } from '../../src/servers/server.ts';
import { fairness } from '../../src/stats/fairness.ts';
import { SEEDS_ONLY } from './helpers.ts';

let dataDir: string;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'bench-fair-'));
  generateDataFiles(dataDir, 2, 4096);
});
afterAll(async () => {
  await stopAllServers();
  rmSync(dataDir, { recursive: true, force: true });
});

describe.each(RUNTIME_NAMES)('%s counts answers per connection', (runtime) => {
  it('and they sum to the route count, one entry per connection', async () => {
    const server = await startServer(runtimeSpec(runtime), { raw: false, serverArgs: ['--data-dir', dataDir, ...SEEDS_ONLY] });
    try {
      await fetch(`${server.url}/reset`, { method: 'POST' });
      const load = await runLoad({ url: `${server.url}/sleep/async?ms=5`, connections: 6, durationSec: 0.6, timeoutSec: 5 }).done;
      // Let the requests still in flight when the load stopped finish, then read the counts.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const stats = (await (await fetch(`${server.url}/stats`)).json()) as {
        routes: Record<string, { count: number; perConnection?: Record<string, number> }>;
      };
      const route = stats.routes['/sleep/async']!;
      const counts = Object.values(route.perConnection ?? {});
      expect(counts.reduce((a, b) => a + b, 0)).toBe(route.count);
      expect(counts).toHaveLength(6);
      expect(route.count).toBeGreaterThanOrEqual(load.completed);
      // Timers overlap the waits: every connection gets its turn.
      expect(fairness(counts)!.jain).toBeGreaterThan(0.9);
    } finally {
      await server.stop();
    }
  });
});
