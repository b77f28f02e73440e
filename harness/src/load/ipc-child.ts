/**
 * The harness's helper processes (the probe, the open-loop generator) run apart from its own
 * event loop, so their timing does not wait on the harness's work: a TypeScript module forked
 * and driven over IPC, one request and its answer at a time.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * Forks `modulePath` (a .ts file) with an IPC channel; its output is ours. A Node that strips
 * types itself runs it as it is: the child is the harness's own erasable TypeScript, and tsx's
 * resolve and load hooks would cost it most of a second of CPU at every start. Under
 * node_modules (the installed tool) Node refuses to strip types, so there, and on an older Node,
 * it runs under tsx's loader.
 */
export function forkTs(modulePath: string): ChildProcess {
  const stripsItself = Boolean((process.features as { typescript?: unknown }).typescript) && !/[/\\]node_modules[/\\]/.test(modulePath);
  const execArgv = stripsItself ? [] : ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href];
  return fork(modulePath, [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
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
