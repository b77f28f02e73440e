// Bun entrypoint: `bun server.ts [--port N] [--host H] [--raw] ...`
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describeStartError, parseServerArgs, readinessLine, type ServerOptions } from '@bench/app/server-args';

let options: ServerOptions;
try {
  options = parseServerArgs(Bun.argv.slice(2), {
    runtime: 'bun',
    version: Bun.version,
    pid: process.pid,
    defaultDataDir: fileURLToPath(new URL('../../data/files', import.meta.url)),
    cpus: availableParallelism(),
  });
} catch (error) {
  console.error(`bun server: ${(error as Error).message}`);
  process.exit(2);
}

const { start } = options.raw ? await import('./raw.ts') : await import('./hono.ts');
try {
  const running = await start(options);
  console.log(readinessLine(running.url, 'bun', options.raw ? 'raw' : 'hono', process.pid));
  const stop = () => void running.stop().finally(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
} catch (error) {
  console.error(`bun server: ${describeStartError(error, options.host, options.port)}`);
  process.exit(1);
}
