import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { GeneratorCommand, GeneratorMessage, StepMeasurement, StepOptions } from './generator-types.ts';

export type { StepMeasurement, StepOptions } from './generator-types.ts';

const here = dirname(fileURLToPath(import.meta.url));

/** The open-loop generator's process (generator-child.ts), started once and driven over IPC. */
export class Generator {
  private readonly child: ChildProcess;
  private readonly ready: Promise<void>;

  constructor() {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    this.child = fork(resolve(here, 'generator-child.ts'), [], { execArgv: ['--import', tsx], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
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
    return new Promise((resolve, reject) => {
      const onMessage = (message: GeneratorMessage) => {
        if (!accept(message)) return;
        cleanup();
        resolve(message);
      };
      const onExit = (code: number | null) => {
        cleanup();
        reject(new Error(`generator process exited (${code})`));
      };
      const cleanup = () => {
        this.child.off('message', onMessage);
        this.child.off('exit', onExit);
      };
      this.child.on('message', onMessage);
      this.child.once('exit', onExit);
    });
  }
}
