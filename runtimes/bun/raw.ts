import { ALONE, CONTROL_HOST, type Listening, type ListenRole } from '@bench/app/cluster';
import { health, HELLO_TEXT } from '@bench/app/identity';
import { SERVER_IDLE_TIMEOUT_SEC, type ServerOptions } from '@bench/app/server-args';

/** Bun.serve with no framework: the floor Hono's overhead is measured against. */
export async function start(options: ServerOptions, role: ListenRole = ALONE): Promise<Listening> {
  const { cluster, pools, pid } = options.app;
  const identity = () =>
    JSON.stringify(
      health('bun', options.app.version, pid, 'raw', {
        ...(cluster === undefined ? {} : { cluster, selfPid: pid }),
        ...(pools === undefined ? {} : { pools }),
      }),
    );
  const fetch = (req: Request) => {
    const path = new URL(req.url).pathname;
    if (path === '/hello') return new Response(HELLO_TEXT, { headers: { 'content-type': 'text/plain; charset=UTF-8' } });
    if (path === '/health') return new Response(identity(), { headers: { 'content-type': 'application/json' } });
    return Response.json({ error: `no route ${req.method} ${path}` }, { status: 404 });
  };
  const server = Bun.serve({
    port: options.port,
    hostname: options.host,
    idleTimeout: SERVER_IDLE_TIMEOUT_SEC,
    reusePort: role.reusePort,
    fetch,
  });
  const control = role.control ? Bun.serve({ port: 0, hostname: CONTROL_HOST, idleTimeout: SERVER_IDLE_TIMEOUT_SEC, fetch }) : undefined;
  return {
    url: server.url.origin,
    ...(control === undefined ? {} : { controlUrl: control.url.origin }),
    async stop() {
      await Promise.all([server.stop(true), control?.stop(true)]);
    },
  };
}
