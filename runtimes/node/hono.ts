import type { Server } from 'node:http';
import { createAdaptorServer, serve } from '@hono/node-server';
// The app alone: the package's index also loads what the harness reads from it (the hash module, bcrypt's addon with it).
import { createApp } from '@bench/app/app';
import { ALONE, CONTROL_HOST, type Listening, type ListenRole } from '@bench/app/cluster';
import type { ServerOptions } from '@bench/app/server-args';
import { applyTimeouts, closeServer, listening } from './listen.ts';

export async function start(options: ServerOptions, role: ListenRole = ALONE): Promise<Listening> {
  // @hono/node-server hands each request's node:http objects to Hono as c.env.
  const peerPort = (env: unknown) => (env as { incoming?: { socket?: { remotePort?: number } } }).incoming?.socket?.remotePort;
  const app = await createApp({ ...options.app, peerPort });
  // Without a createServer option, @hono/node-server builds a plain node:http server. In a
  // cluster worker, its listen() goes through the primary, which shares one port among workers.
  const server = serve({ fetch: app.fetch, port: options.port, hostname: options.host }) as Server;
  applyTimeouts(server);
  const url = await listening(server, options.host);
  let control: Server | undefined;
  let controlUrl: string | undefined;
  if (role.control) {
    control = createAdaptorServer({ fetch: app.fetch }) as Server;
    applyTimeouts(control);
    // exclusive: this worker's own port, not one shared through the cluster primary.
    control.listen({ port: 0, host: CONTROL_HOST, exclusive: true });
    controlUrl = await listening(control, CONTROL_HOST);
  }
  return {
    url,
    ...(controlUrl === undefined ? {} : { controlUrl }),
    async stop() {
      await Promise.all([closeServer(server), control === undefined ? undefined : closeServer(control)]);
      await app.close();
    },
  };
}
