import { health, HELLO_TEXT } from '@bench/app/identity';
import { SERVER_IDLE_TIMEOUT_SEC, type ServerOptions } from '@bench/app/server-args';

/** Bun.serve with no framework: the floor Hono's overhead is measured against. */
export async function start(options: ServerOptions) {
  const identity = JSON.stringify(health('bun', options.app.version, options.app.pid, 'raw'));
  const server = Bun.serve({
    port: options.port,
    hostname: options.host,
    idleTimeout: SERVER_IDLE_TIMEOUT_SEC,
    fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === '/hello') return new Response(HELLO_TEXT, { headers: { 'content-type': 'text/plain; charset=UTF-8' } });
      if (path === '/health') return new Response(identity, { headers: { 'content-type': 'application/json' } });
      return Response.json({ error: `no route ${req.method} ${path}` }, { status: 404 });
    },
  });
  return { url: server.url.origin, stop: () => server.stop(true) };
}
