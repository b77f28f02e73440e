import { createApp } from '@bench/app';
import { SERVER_IDLE_TIMEOUT_SEC, type ServerOptions } from '@bench/app/server-args';

export async function start(options: ServerOptions) {
  // Bun.serve passes itself to fetch, so Hono's c.env is the server, which knows each request's peer.
  const peerPort = (env: unknown, request: Request) => (env as { requestIP?(r: Request): { port: number } | null }).requestIP?.(request)?.port;
  const app = createApp({ ...options.app, peerPort });
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
