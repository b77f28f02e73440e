import type { ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forkTs, nextMessage } from '../run/ipc-child.ts';
import type { GeneratorCommand, GeneratorMessage, StepMeasurement, StepOptions } from './generator-types.ts';

export type { StepMeasurement, StepOptions } from './generator-types.ts';

const here = dirname(fileURLToPath(import.meta.url));

/** The open-loop generator's process (generator-child.ts), started once and driven over IPC. */
export class Generator {
  private readonly child: ChildProcess;
  private readonly ready: Promise<void>;

  constructor() {
    this.child = forkTs(resolve(here, 'generator-child.ts'));
    this.ready = this.next((m) => m.type === 'ready').then(() => undefined);
    this.ready.catch(() => {});
    // A generator that waits for a CPU sends late: its priority is raised where allowed (it is
    // light, and lateness is measured and flagged either way).
    try {
      if (this.child.pid !== undefined) setPriority(this.child.pid, -10);
    } catch {
      // Not root: it runs at normal priority.
    }
  }

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
