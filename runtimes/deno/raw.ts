import { ALONE, type Listening, type ListenRole } from '@bench/app/cluster';
import { health, HELLO_TEXT } from '@bench/app/identity';
import type { ServerOptions } from '@bench/app/server-args';
import { listenAll } from './listen.ts';

/** Deno.serve with no framework: the floor Hono's overhead is measured against. */
export async function start(options: ServerOptions, role: ListenRole = ALONE): Promise<Listening> {
  const { cluster, pools, pid } = options.app;
  const identity = () =>
    JSON.stringify(
      health('deno', options.app.version, pid, 'raw', {
        ...(cluster === undefined ? {} : { cluster }),
        ...(pools === undefined ? {} : { pools }),
      }),
    );
  const listening = await listenAll(
    options,
    (req) => {
      const path = new URL(req.url).pathname;
      if (path === '/hello') return new Response(HELLO_TEXT, { headers: { 'content-type': 'text/plain; charset=UTF-8' } });
      if (path === '/health') return new Response(identity(), { headers: { 'content-type': 'application/json' } });
      return Response.json({ error: `no route ${req.method} ${path}` }, { status: 404 });
    },
    role,
  );
  return {
    url: listening.url,
    ...(listening.controlUrl === undefined ? {} : { controlUrl: listening.controlUrl }),
    stop: listening.shutdown,
  };
}
