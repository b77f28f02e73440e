/**
 * The network path before the run: round trips of GET /health on a server started for the
 * purpose on the server host (one keep-alive connection; the first 10 calls, which open it and
 * warm the server, not counted), so the report says what a request pays in the network alone.
 */
import type { NetworkPath } from '../report/report-types.ts';
import type { RuntimeSpec } from '../run/runtimes.ts';
import { median, roundFigure } from '../report/stats.ts';
import { startRemoteServer } from './remote-server.ts';
import type { RemoteTarget } from './ssh.ts';

export const RTT_SAMPLES = 20;
const RTT_WARMUP = 10;

export async function measureRtt(spec: RuntimeSpec, target: RemoteTarget, serverArgs: string[]): Promise<NonNullable<NetworkPath['rttMs']>> {
  const server = await startRemoteServer(spec, target, { raw: false, serverArgs });
  try {
    const times: number[] = [];
    // The first calls open the connection and warm the server's JIT: not the network's time.
    for (let i = 0; i < RTT_SAMPLES + RTT_WARMUP; i++) {
      const start = performance.now();
      const res = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(5_000) });
      await res.arrayBuffer();
      if (i >= RTT_WARMUP) times.push(performance.now() - start);
    }
    const round = (x: number) => roundFigure(x, 3);
    return { median: round(median(times)), min: round(Math.min(...times)), max: round(Math.max(...times)), samples: times.length, runtime: spec.name };
  } finally {
    await server.stop();
  }
}
