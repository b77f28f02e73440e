/**
 * The supervisor of `--processes N` on Bun and Deno (Node uses node:cluster, runtimes/node):
 * N child processes of the same runtime serve the unchanged app on one port with SO_REUSEPORT,
 * the kernel spreading connections over them. The supervisor is the process that was started:
 * it stays the group leader, prints the readiness line with its own pid, and ends the group
 * when any serving process ends (a lost process must fail the measurement, never leave a
 * smaller server quietly answering). Only node: modules, which Bun and Deno both provide; the
 * runtime entry passes its own binary, arguments and environment in.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { parsePeersLine, parseWorkerReady, peersLine, type ProcessPeer } from './cluster.ts';

export interface WorkerCommand {
  /** The runtime binary. */
  execPath: string;
  /** Everything after the binary: entrypoint and the server's flags (--port is appended). */
  args: string[];
  env: Record<string, string | undefined>;
}

export interface SuperviseOptions {
  command: WorkerCommand;
  processes: number;
  /** The public port; 0 lets the first process pick one, which the others then share. */
  port: number;
  leaderPid: number;
  /** Extra environment for the serving processes (e.g. a pool size read at start). */
  workerEnv?: Record<string, string>;
  readyTimeoutMs?: number;
  /** Called once when a serving process ends while the group is not being stopped. */
  onLost(reason: string): void;
}

export interface Supervised {
  url: string;
  peers: ProcessPeer[];
  stop(): Promise<void>;
}

/** Environment names the supervisor sets on the processes it starts. */
export const LEADER_ENV = 'BENCH_LEADER_PID';
export const PROCESSES_ENV = 'BENCH_PROCESSES';

interface Child {
  proc: ChildProcess;
  ready: Promise<ProcessPeer & { url: string }>;
  exited: Promise<void>;
}

export async function superviseReusePort(options: SuperviseOptions): Promise<Supervised> {
  let stopping = false;
  const children: Child[] = [];
  const startOne = (port: number): Child => {
    const proc = spawn(options.command.execPath, [...options.command.args, '--port', String(port)], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: {
        ...options.command.env,
        ...options.workerEnv,
        [LEADER_ENV]: String(options.leaderPid),
        [PROCESSES_ENV]: String(options.processes),
      },
    });
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    const ready = new Promise<ProcessPeer & { url: string }>((resolve, reject) => {
      const lines = createInterface({ input: proc.stdout! });
      lines.on('line', (line) => {
        const peer = parseWorkerReady(line);
        if (peer !== undefined) resolve(peer);
        else if (line.trim() !== '') console.log(line);
      });
      proc.once('error', reject);
      proc.once('exit', (code, signal) => {
        const how = signal === null ? `exit code ${code}` : `signal ${signal}`;
        reject(new Error(`serving process ${proc.pid} exited before it was ready (${how})`));
        if (!stopping) {
          stopping = true;
          options.onLost(`serving process ${proc.pid} ended (${how}); stopping the others`);
        }
      });
    });
    ready.catch(() => {});
    return { proc, ready, exited };
  };
  const stop = async () => {
    stopping = true;
    for (const child of children) child.proc.kill('SIGTERM');
    const grace = new Promise((resolve) => setTimeout(resolve, 5_000).unref?.());
    await Promise.race([Promise.all(children.map((c) => c.exited)), grace]);
    for (const child of children) if (child.proc.exitCode === null && child.proc.signalCode === null) child.proc.kill('SIGKILL');
  };

  const timeoutMs = options.readyTimeoutMs ?? 30_000;
  const withTimeout = <T>(p: Promise<T>) =>
    Promise.race([
      p,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`serving processes not ready within ${timeoutMs / 1000} s`)), timeoutMs).unref?.(),
      ),
    ]);
  try {
    // The first picks the port (when 0); the others bind the same one with reusePort.
    const first = startOne(options.port);
    children.push(first);
    const head = await withTimeout(first.ready);
    const port = Number(new URL(head.url).port);
    for (let i = 1; i < options.processes; i++) children.push(startOne(port));
    const all = await withTimeout(Promise.all(children.map((c) => c.ready)));
    const peers = all.map(({ pid, controlUrl }) => ({ pid, controlUrl }));
    const line = `${peersLine(peers)}\n`;
    for (const child of children) child.proc.stdin?.write(line);
    return { url: head.url, peers, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The serving process's side: the supervisor's `peers` line arrives on stdin; stdin ending
 * means the supervisor is gone, and then this process must go too (`onOrphaned`).
 */
export function receivePeers(input: NodeJS.ReadableStream, onPeers: (peers: ProcessPeer[]) => void, onOrphaned: () => void): void {
  const lines = createInterface({ input });
  lines.on('line', (line) => {
    const peers = parsePeersLine(line);
    if (peers !== undefined) onPeers(peers);
  });
  lines.once('close', onOrphaned);
}
