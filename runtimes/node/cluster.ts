import cluster, { type Worker } from 'node:cluster';
import { parsePeersLine, parseWorkerReady, peersLine, workerReadyLine, type Listening, type ProcessPeer } from '@bench/app/cluster';

/**
 * `--processes N` on Node: node:cluster. The primary (the process that was started, group
 * leader) forks N workers running this same entrypoint; their public listen() goes through the
 * primary, which hands connections out round-robin (Node's default on Linux). Each worker tells
 * the primary its control URL over the cluster's IPC channel; once all have, the primary sends
 * every worker the whole list (cluster.ts in the app). Any worker ending ends the group.
 */
export async function runPrimary(
  processes: number,
  onLost: (reason: string) => void,
): Promise<{ url: string; peers: ProcessPeer[]; stop(): Promise<void> }> {
  let stopping = false;
  const workers: Worker[] = [];
  const ready = new Map<number, ProcessPeer & { url: string }>();
  const stop = async () => {
    stopping = true;
    const exits = workers.filter((w) => !w.isDead()).map((w) => new Promise((resolve) => w.once('exit', resolve)));
    for (const w of workers) w.process.kill('SIGTERM');
    await Promise.race([Promise.all(exits), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
    for (const w of workers) if (!w.isDead()) w.process.kill('SIGKILL');
  };
  const all = new Promise<void>((resolve, reject) => {
    for (let i = 0; i < processes; i++) {
      const worker = cluster.fork();
      workers.push(worker);
      worker.on('message', (message: unknown) => {
        const peer = typeof message === 'string' ? parseWorkerReady(message) : undefined;
        if (peer === undefined) return;
        ready.set(peer.pid, peer);
        if (ready.size === processes) resolve();
      });
      worker.once('exit', (code, signal) => {
        const how = signal === null ? `exit code ${code}` : `signal ${signal}`;
        reject(new Error(`serving process ${worker.process.pid} exited before it was ready (${how})`));
        if (!stopping) {
          stopping = true;
          onLost(`serving process ${worker.process.pid} ended (${how}); stopping the others`);
        }
      });
    }
  });
  try {
    await Promise.race([
      all,
      new Promise((_, reject) => setTimeout(() => reject(new Error('serving processes not ready within 30 s')), 30_000).unref()),
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  const peers = [...ready.values()].map(({ pid, controlUrl }) => ({ pid, controlUrl }));
  for (const worker of workers) worker.send(peersLine(peers));
  return { url: [...ready.values()][0]?.url ?? '', peers, stop };
}

/** A worker's side: report its listeners, take the peer list, go when the primary goes. */
export function serveAsWorker(running: Listening, onPeers: (peers: ProcessPeer[]) => void, onOrphaned: () => void): void {
  process.on('message', (message: unknown) => {
    const peers = typeof message === 'string' ? parsePeersLine(message) : undefined;
    if (peers !== undefined) onPeers(peers);
  });
  process.once('disconnect', onOrphaned);
  process.send?.(workerReadyLine(process.pid, running.url, running.controlUrl ?? ''));
}
