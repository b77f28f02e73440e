import { createApp } from '@bench/app';
import type { ServerOptions } from '@bench/app/server-args';
import { SERVER_IDLE_TIMEOUT_S } from './timeouts.ts';

export async function start(options: ServerOptions) {
  const app = createApp(options.app);
  const server = Bun.serve({
    fetch: app.fetch,
    port: options.port,
    hostname: options.host,
    idleTimeout: SERVER_IDLE_TIMEOUT_S,
  });
  return {
    url: server.url.origin,
    async stop() {
      await server.stop(true);
      await app.close();
    },
  };
}
