/**
 * The network path before the run, figures named for what they measure:
 * - the HTTP round trip: GET /health on a server started for the purpose on the server host (one
 *   keep-alive connection; the first 10 calls, which open it and warm the server, not counted).
 *   That is network + both TCP stacks + the HTTP client here + the app there (report: httpRttMs,
 *   and rttMs as before).
 * - the network round trip: TCP connect time (SYN to SYN-ACK) from the load host to that
 *   server's port, and from the server host (its pinned Node, over ssh) to a listener this host
 *   opens on its own address for those few seconds only (report: tcpConnectMs).
 * ICMP is not used: ping needs a setuid binary or a sysctl on each side; a TCP handshake needs
 * neither and crosses the same path.
 */
import { connect, createServer, type AddressInfo } from 'node:net';
import type { NetworkPath, RoundTrip } from '../model/environment.ts';
import { runtimeSpec, type RuntimeSpec } from '../servers/runtimes.ts';
import { median, roundFigure } from '../stats/stats.ts';
import { remoteSpec } from './preflight.ts';
import { startRemoteServer } from './remote-server.ts';
import { sshRun } from './ssh.ts';
import type { RemoteTarget } from '../servers/server-host.ts';

export const RTT_SAMPLES = 20;
const RTT_WARMUP = 10;
/** TCP connects per side; the first few pay for ARP and the route cache, not counted. */
const CONNECT_SAMPLES = 20;
const CONNECT_WARMUP = 3;

export function roundTrip(times: number[]): RoundTrip {
  const round = (x: number) => roundFigure(x, 3);
  return { median: round(median(times)), min: round(Math.min(...times)), max: round(Math.max(...times)), samples: times.length };
}

/** One TCP handshake to host:port, in ms (the socket is closed at once). */
function connectOnce(host: string, port: number, timeoutMs = 3_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const socket = connect({ host, port }, () => {
      const ms = performance.now() - start;
      socket.destroy();
      resolve(ms);
    });
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      reject(new Error(`no TCP handshake with ${host}:${port} within ${timeoutMs} ms`));
    });
    socket.once('error', reject);
  });
}

export async function tcpConnectTimes(host: string, port: number, samples = CONNECT_SAMPLES, warmup = CONNECT_WARMUP): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < samples + warmup; i++) {
    const ms = await connectOnce(host, port);
    if (i >= warmup) times.push(ms);
  }
  return times;
}

/** Node on the server host: $1 host, $2 port, $3 samples, $4 warm-up; prints the times as JSON. */
const CONNECT_SCRIPT = `const net = require('node:net');
const [host, port, n, warm] = process.argv.slice(1);
const once = () => new Promise((resolve, reject) => {
  const start = performance.now();
  const s = net.connect({ host, port: Number(port) }, () => { const ms = performance.now() - start; s.destroy(); resolve(ms); });
  s.setTimeout(3000, () => { s.destroy(); reject(new Error('no TCP handshake with ' + host + ':' + port + ' within 3000 ms')); });
  s.once('error', reject);
});
(async () => { const t = []; for (let i = 0; i < Number(n) + Number(warm); i++) { const ms = await once(); if (i >= Number(warm)) t.push(ms); } console.log(JSON.stringify(t)); })()
  .catch((e) => { console.error(e.message); process.exit(1); });`;

/**
 * The server host's view: its Node connects to a listener here, bound to the address the
 * server host sees this host as (from its $SSH_CONNECTION). Accepted sockets are closed at once.
 */
export async function tcpConnectFromServerHost(target: RemoteTarget, loadAddress: string): Promise<number[]> {
  const listener = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    listener.once('error', (error) =>
      reject(new Error(`cannot listen on ${loadAddress} here for the server host's connects: ${error.message}`)),
    );
    listener.listen(0, loadAddress, () => resolve());
  });
  try {
    const port = (listener.address() as AddressInfo).port;
    const node = remoteSpec(runtimeSpec('node'), target.dir).binary;
    const out = await sshRun(
      target,
      [node, '-e', CONNECT_SCRIPT, loadAddress, String(port), String(CONNECT_SAMPLES), String(CONNECT_WARMUP)],
      30_000,
    );
    if (out.code !== 0)
      throw new Error(`TCP connects from the server host failed (exit ${out.code}): ${out.stderr.trim().split('\n').at(-1) ?? ''}`);
    return JSON.parse(out.stdout.trim().split('\n').at(-1) ?? '[]') as number[];
  } finally {
    listener.close();
  }
}

/**
 * Both round trips, with one server started there for the purpose. Throws only when that server
 * does not start (the caller records rttUnavailable); a TCP side that fails says why instead.
 */
export async function measureNetwork(
  spec: RuntimeSpec,
  target: RemoteTarget,
  serverArgs: string[],
  loadAddress: string | undefined,
): Promise<Omit<NetworkPath, 'mtu'>> {
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
    const http = { ...roundTrip(times), runtime: spec.name };
    const url = new URL(server.url);
    const unavailable: { fromLoadHost?: string; fromServerHost?: string } = {};
    let fromLoadHost: RoundTrip | undefined;
    let fromServerHost: RoundTrip | undefined;
    try {
      fromLoadHost = roundTrip(await tcpConnectTimes(url.hostname, Number(url.port)));
    } catch (error) {
      unavailable.fromLoadHost = (error as Error).message;
    }
    if (loadAddress === undefined) unavailable.fromServerHost = "the load host's address is unknown there ($SSH_CONNECTION empty)";
    else {
      try {
        fromServerHost = roundTrip(await tcpConnectFromServerHost(target, loadAddress));
      } catch (error) {
        unavailable.fromServerHost = (error as Error).message;
      }
    }
    return {
      rttMs: http,
      httpRttMs: http,
      tcpConnectMs: {
        ...(fromLoadHost === undefined ? {} : { fromLoadHost }),
        ...(fromServerHost === undefined ? {} : { fromServerHost }),
        ...(Object.keys(unavailable).length === 0 ? {} : { unavailable }),
      },
    };
  } finally {
    await server.stop();
  }
}

/** One log line: the network's round trip beside the HTTP one. */
export function networkLine(network: Omit<NetworkPath, 'mtu'>): string {
  const f = (r: RoundTrip | undefined, why: string | undefined) =>
    r === undefined ? `not measured (${why ?? '?'})` : `${r.median} ms median (min ${r.min}, max ${r.max})`;
  const tcp = network.tcpConnectMs;
  return `network round trip (TCP connect): from here ${f(tcp?.fromLoadHost, tcp?.unavailable?.fromLoadHost)}, from the server host ${f(tcp?.fromServerHost, tcp?.unavailable?.fromServerHost)}; HTTP round trip (GET /health): ${f(network.httpRttMs, undefined)}`;
}
