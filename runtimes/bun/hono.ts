import { createApp } from '@bench/app';
import { SERVER_IDLE_TIMEOUT_SEC, type ServerOptions } from '@bench/app/server-args';

export async function start(options: ServerOptions) {
  const app = createApp(options.app);
  const server = Bun.serve({
    fetch: app.fetch,
    port: options.port,
    hostname: options.host,
    idleTimeout: SERVER_IDLE_TIMEOUT_SEC,
  });
  return {
    url: server.url.origin,
    async stop() {
      await server.stop(true);
      await app.close();
    },
  };
}
