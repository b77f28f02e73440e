// The app alone: the package's index also loads what the harness reads from it (the hash module, bcrypt's addon with it).
import { createApp } from '@bench/app/app';
import { ALONE, type Listening, type ListenRole } from '@bench/app/cluster';
import type { ServerOptions } from '@bench/app/server-args';
import { listenAll } from './listen.ts';

export async function start(options: ServerOptions, role: ListenRole = ALONE): Promise<Listening> {
  // Deno.serve passes the connection's info to the handler, so Hono's c.env is that info.
  const peerPort = (env: unknown) => (env as { remoteAddr?: { port?: number } }).remoteAddr?.port;
  const app = await createApp({ ...options.app, peerPort });
  const listening = await listenAll(options, app.fetch, role);
  return {
    url: listening.url,
    ...(listening.controlUrl === undefined ? {} : { controlUrl: listening.controlUrl }),
    async stop() {
      await listening.shutdown();
      await app.close();
    },
  };
}
