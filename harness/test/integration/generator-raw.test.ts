// The open-loop generator on raw sockets against a real raw server: a few thousand Poisson
// arrivals in a second, every one sent (none dropped), answered and counted once. No timing is
// asserted: the CI machine's speed is not the generator's (docs/load-generator.md for ceilings).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrivalOffsets } from '../../src/load/arrivals.ts';
import { Generator } from '../../src/load/generator.ts';
import { runtimeSpec } from '../../src/servers/runtimes.ts';
import { startServer, stopAllServers, type RunningServer } from '../../src/servers/server.ts';
import { isAlive } from './helpers.ts';

let server: RunningServer;
let generator: Generator;

beforeAll(async () => {
  server = await startServer(runtimeSpec('node'), { raw: true, serverArgs: [] });
  generator = new Generator();
});

afterAll(async () => {
  const pid = generator.pid;
  await generator.close();
  await stopAllServers();
  if (pid !== undefined) expect(isAlive(pid)).toBe(false);
});

describe('generator against a raw server', () => {
  it('sends 2,000 req/s of Poisson arrivals for 1 s with nothing dropped, and the counts add up', async () => {
    const options = {
      url: `${server.url}/hello`,
      ratePerSec: 2_000,
      durationSec: 1,
      arrivals: 'poisson' as const,
      seed: 7,
      maxInFlight: 512,
      timeoutMs: 5_000,
    };
    await generator.runStep({ ...options, durationSec: 0.2 });
    const m = await generator.runStep(options);
    expect(m.scheduled).toBe(arrivalOffsets(2_000, 1, 'poisson', 7).length);
    expect(m).toMatchObject({ sent: m.scheduled, dropped: 0, completed: m.scheduled, errors: 0, timeouts: 0 });
    expect(m.latencyMs.p50).toBeGreaterThan(0);
    expect(m.latencyMs.max).toBeGreaterThanOrEqual(m.latencyMs.p99);
    expect(m.achievedPerSec).toBeGreaterThan(0);
    expect(m.latenessMs.max).toBeGreaterThanOrEqual(m.latenessMs.p99);
  });
});
