import { createApp } from '@bench/app';
import type { ServerOptions } from '@bench/app/server-args';
import { listen } from './listen.ts';

export async function start(options: ServerOptions) {
  // Deno.serve passes the connection's info to the handler, so Hono's c.env is that info.
  const peerPort = (env: unknown) => (env as { remoteAddr?: { port?: number } }).remoteAddr?.port;
  const app = createApp({ ...options.app, peerPort });
  const { server, url } = await listen(options, app.fetch);
  return {
    url,
    async stop() {
      await server.shutdown();
      await app.close();
    },
  };
}
