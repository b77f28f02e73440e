import { spawnSync, type ChildProcess } from 'node:child_process';
import { setPriority as osSetPriority } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forkTs, nextMessage } from './ipc-child.ts';
import type { GeneratorCommand, GeneratorMessage, StepMeasurement, StepOptions } from './generator-types.ts';

export type { StepMeasurement, StepOptions } from './generator-types.ts';

const here = dirname(fileURLToPath(import.meta.url));

export type GeneratorPriority = 'realtime' | 'nice -10' | 'normal';

/**
 * A generator that waits for a CPU sends late, and on two cores shared with the server a normal
 * process that sleeps until its next send can wait milliseconds to be woken. So while its steps
 * leave it mostly asleep (under REALTIME_BELOW_PER_SEC) it runs real-time (SCHED_FIFO via chrt,
 * where allowed: root or CAP_SYS_NICE): a send that falls due preempts ordinary work at once.
 * At higher rates it is on a CPU most of the time, and real-time it then took that CPU from the
 * server whenever it (or its runtime's helper threads, which chrt -a makes real-time too) ran: on
 * raw Bun /hello at 20,000-44,000 req/s, 2 s steps, 3 of 24 held lateness p99 < 1 ms real-time
 * against 12 of 24 at nice -10, and real-time rounds overflowed the server's listen queue 34 to
 * 1,884 times where nice -10 rounds did 0 to 8. So from
 * REALTIME_BELOW_PER_SEC on it runs at nice -10 (SCHED_OTHER: no throttling, ordinary
 * preemption). Where a setting is refused, the next one down; lateness is measured and flagged
 * whichever it got.
 */
export function setPriority(pid: number, ratePerSec: number): GeneratorPriority {
  // -a: every thread of the process; threads started later inherit the policy.
  if (ratePerSec < REALTIME_BELOW_PER_SEC) {
    const chrt = spawnSync('chrt', ['-a', '-f', '-p', String(REALTIME_PRIORITY), String(pid)], { stdio: 'ignore' });
    if (chrt.status === 0) return 'realtime';
  } else {
    spawnSync('chrt', ['-a', '-o', '-p', '0', String(pid)], { stdio: 'ignore' });
  }
  try {
    osSetPriority(pid, -10);
    return 'nice -10';
  } catch {
    return 'normal';
  }
}

/** Steps at this rate or more run at nice -10, slower ones real-time: see setPriority. */
export const REALTIME_BELOW_PER_SEC = 10_000;
/** Low among real-time priorities: above every ordinary process, below the kernel's own threads. */
const REALTIME_PRIORITY = 10;

/** The open-loop generator's process (generator-child.ts), started once and driven over IPC. */
export class Generator {
  private readonly child: ChildProcess;
  private readonly ready: Promise<void>;

  constructor() {
    this.child = forkTs(resolve(here, 'generator-child.ts'));
    this.ready = this.next((m) => m.type === 'ready').then(() => undefined);
    this.ready.catch(() => {});
  }

  /** The scheduling the generator process got for its last step: see setPriority. */
  priority: GeneratorPriority = 'normal';
  /** Which side of REALTIME_BELOW_PER_SEC the scheduling was last set for (undefined: not yet). */
  private realtimeAsked: boolean | undefined;

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** One step; resolves once every request sent has been answered, failed or timed out. */
  async runStep(options: StepOptions): Promise<StepMeasurement> {
    await this.ready;
    // chrt is a process spawned per call: asked again only when the step's side of the threshold changes.
    const realtime = options.ratePerSec < REALTIME_BELOW_PER_SEC;
    if (this.child.pid !== undefined && realtime !== this.realtimeAsked) {
      this.priority = setPriority(this.child.pid, options.ratePerSec);
      this.realtimeAsked = realtime;
    }
    const reply = this.next((m) => m.type === 'result' || m.type === 'error');
    this.child.send({ type: 'step', options } satisfies GeneratorCommand);
    const message = await reply;
    if (message.type === 'error') throw new Error(`generator: ${message.message}`);
    if (message.type !== 'result') throw new Error('generator: unexpected answer');
    return message.result;
  }

  /** Ends the process; resolves once it has exited. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    if (this.child.connected) this.child.disconnect();
    this.child.kill('SIGKILL');
    await exited;
  }

  private next(accept: (m: GeneratorMessage) => boolean): Promise<GeneratorMessage> {
    return nextMessage(this.child, accept, (code) => `generator process exited (${code})`);
  }
}
