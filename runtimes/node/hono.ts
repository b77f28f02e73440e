import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createApp } from '@bench/app';
import type { ServerOptions } from '@bench/app/server-args';
import { applyTimeouts, closeServer, listening } from './listen.ts';

export async function start(options: ServerOptions) {
  // @hono/node-server hands each request's node:http objects to Hono as c.env.
  const peerPort = (env: unknown) => (env as { incoming?: { socket?: { remotePort?: number } } }).incoming?.socket?.remotePort;
  const app = createApp({ ...options.app, peerPort });
  // Without a createServer option, @hono/node-server builds a plain node:http server.
  const server = serve({ fetch: app.fetch, port: options.port, hostname: options.host }) as Server;
  applyTimeouts(server);
  const url = await listening(server, options.host);
  return {
    url,
    async stop() {
      await closeServer(server);
      await app.close();
    },
  };
}
