/**
 * The harness's helper processes (the probe, the open-loop generator) run apart from its own
 * event loop, so their timing does not wait on the harness's work: a TypeScript module forked
 * under tsx and driven over IPC, one request and its answer at a time.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** Forks `modulePath` (a .ts file) under tsx's loader with an IPC channel; its output is ours. */
export function forkTs(modulePath: string): ChildProcess {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return fork(modulePath, [], { execArgv: ['--import', tsx], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

/**
 * The next message from `child` that `accept` takes; rejects with `exitError(code)` when the
 * child exits first.
 */
export function nextMessage<M>(
  child: ChildProcess,
  accept: (message: M) => boolean,
  exitError: (code: number | null) => string,
): Promise<M> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: M) => {
      if (!accept(message)) return;
      cleanup();
      resolve(message);
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(exitError(code)));
    };
    const cleanup = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}
