// Deno entrypoint, started by command.ts with explicit permissions (never -A).
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describeStartError, parseServerArgs, readinessLine, type ServerOptions } from '@bench/app/server-args';

let options: ServerOptions;
try {
  options = parseServerArgs(Deno.args, {
    runtime: 'deno',
    version: Deno.version.deno,
    pid: Deno.pid,
    defaultDataDir: fileURLToPath(new URL('../../data/files', import.meta.url)),
    cpus: availableParallelism(),
  });
} catch (error) {
  console.error(`deno server: ${(error as Error).message}`);
  Deno.exit(2);
}

const { start } = options.raw ? await import('./raw.ts') : await import('./hono.ts');
try {
  const running = await start(options);
  console.log(readinessLine(running.url, 'deno', options.raw ? 'raw' : 'hono', Deno.pid));
  const stop = () => void running.stop().finally(() => Deno.exit(0));
  Deno.addSignalListener('SIGTERM', stop);
  Deno.addSignalListener('SIGINT', stop);
} catch (error) {
  console.error(`deno server: ${describeStartError(error, options.host, options.port)}`);
  Deno.exit(1);
}
