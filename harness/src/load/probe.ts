import type { ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forkTs, nextMessage } from './ipc-child.ts';

export type ProbeCommand = { type: 'start'; url: string; ratePerSec: number; timeoutMs: number } | { type: 'stop' };
export interface ProbeReport {
  sent: number;
  /** Answered probes. */
  count: number;
  /** Probes that failed other than by timing out. */
  errors: number;
  /** Probes that waited past the timeout; they count in the percentiles at the timeout. */
  timeouts: number;
  p50: number;
  p99: number;
  max: number;
}
type ProbeMessage = { type: 'ready' } | { type: 'started' } | { type: 'report'; report: ProbeReport | undefined };

const here = dirname(fileURLToPath(import.meta.url));

/** The probe client's process, started once per bench run and driven over IPC. */
export class Probe {
  private readonly child: ChildProcess;
  private readonly ready: Promise<void>;

  constructor() {
    this.child = forkTs(resolve(here, 'probe-child.ts'));
    this.ready = this.next('ready').then(() => undefined);
    // Closed before it was ever used (nothing to measure): not an error anyone waits for.
    this.ready.catch(() => {});
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  async start(url: string, ratePerSec: number, timeoutMs: number): Promise<void> {
    await this.ready;
    const started = this.next('started');
    this.child.send({ type: 'start', url, ratePerSec, timeoutMs } satisfies ProbeCommand);
    await started;
  }

  async stop(): Promise<ProbeReport> {
    const reply = this.next('report');
    this.child.send({ type: 'stop' } satisfies ProbeCommand);
    const { report } = (await reply) as { report: ProbeReport | undefined };
    if (report === undefined) throw new Error('probe was not running');
    return report;
  }

  close(): void {
    if (this.child.connected) this.child.disconnect();
    this.child.kill();
  }

  private next(type: ProbeMessage['type']): Promise<ProbeMessage> {
    return nextMessage<ProbeMessage>(
      this.child,
      (message) => message.type === type,
      (code) => `probe process exited (${code}) while waiting for "${type}"`,
    );
  }
}
