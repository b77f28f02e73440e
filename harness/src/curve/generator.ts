import { spawnSync, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forkTs, nextMessage } from '../run/ipc-child.ts';
import type { GeneratorCommand, GeneratorMessage, StepMeasurement, StepOptions } from './generator-types.ts';

export type { StepMeasurement, StepOptions } from './generator-types.ts';

const here = dirname(fileURLToPath(import.meta.url));

export type GeneratorPriority = 'realtime' | 'nice -10' | 'normal';

/**
 * A generator that waits for a CPU sends late, and on two cores shared with the server (and, on a
 * shared machine, with others) a normal or even nice -10 process can wait milliseconds to be woken.
 * So it runs real-time (SCHED_FIFO, via chrt, where allowed: root or CAP_SYS_NICE): a send that
 * falls due preempts ordinary work at once. The kernel's real-time throttling (95 % of each second
 * by default) keeps a generator that could not keep up from starving the machine, and it sleeps
 * between sends. Where that is refused, nice -10; where that is refused too, normal priority.
 * Lateness is measured and flagged whichever it got.
 */
export function raisePriority(pid: number): GeneratorPriority {
  // -a: every thread of the process; threads started later inherit the policy.
  const chrt = spawnSync('chrt', ['-a', '-f', '-p', String(REALTIME_PRIORITY), String(pid)], { stdio: 'ignore' });
  if (chrt.status === 0) return 'realtime';
  try {
    setPriority(pid, -10);
    return 'nice -10';
  } catch {
    return 'normal';
  }
}

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
    this.priority = this.child.pid === undefined ? 'normal' : raisePriority(this.child.pid);
  }

  /** The scheduling the generator process got: see raisePriority. */
  readonly priority: GeneratorPriority;

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** One step; resolves once every request sent has been answered, failed or timed out. */
  async runStep(options: StepOptions): Promise<StepMeasurement> {
    await this.ready;
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
