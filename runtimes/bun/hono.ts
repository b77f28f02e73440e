// The app alone: the package's index also loads what the harness reads from it (the hash module, bcrypt's addon with it).
import { createApp } from '@bench/app/app';
import { ALONE, CONTROL_HOST, type Listening, type ListenRole } from '@bench/app/cluster';
import { SERVER_IDLE_TIMEOUT_SEC, type ServerOptions } from '@bench/app/server-args';

export async function start(options: ServerOptions, role: ListenRole = ALONE): Promise<Listening> {
  // Bun.serve passes itself to fetch, so Hono's c.env is the server, which knows each request's peer.
  const peerPort = (env: unknown, request: Request) =>
    (env as { requestIP?(r: Request): { port: number } | null }).requestIP?.(request)?.port;
  const app = await createApp({ ...options.app, peerPort });
  const server = Bun.serve({
    fetch: app.fetch,
    port: options.port,
    hostname: options.host,
    idleTimeout: SERVER_IDLE_TIMEOUT_SEC,
    reusePort: role.reusePort,
  });
  const control = role.control
    ? Bun.serve({ fetch: app.fetch, port: 0, hostname: CONTROL_HOST, idleTimeout: SERVER_IDLE_TIMEOUT_SEC })
    : undefined;
  return {
    url: server.url.origin,
    ...(control === undefined ? {} : { controlUrl: control.url.origin }),
    async stop() {
      await Promise.all([server.stop(true), control?.stop(true)]);
      await app.close();
    },
  };
}
