import { ALONE, CONTROL_HOST, type ListenRole } from '@bench/app/cluster';
import type { ServerOptions } from '@bench/app/server-args';

type Handler = (req: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => Response | Promise<Response>;

/** Deno.serve, resolved once it listens, with the URL it actually bound (port 0 picks one). */
export function listen(options: ServerOptions, handler: Handler, reusePort = false) {
  return serveOn(options.port, options.host, handler, reusePort);
}

function serveOn(port: number, hostname: string, handler: Handler, reusePort: boolean) {
  return new Promise<{ server: Deno.HttpServer<Deno.NetAddr>; url: string }>((resolve) => {
    const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve(
      {
        port,
        hostname,
        // SO_REUSEPORT (Linux): several serving processes share the port (--processes).
        reusePort,
        onListen: ({ hostname, port }) => {
          const host = hostname.includes(':') ? `[${hostname}]` : hostname;
          queueMicrotask(() => resolve({ server, url: `http://${host}:${port}` }));
        },
      },
      handler,
    );
  });
}

/** The public listener and, for one of several serving processes, its private control listener. */
export async function listenAll(options: ServerOptions, handler: Handler, role: ListenRole = ALONE) {
  const main = await listen(options, handler, role.reusePort);
  const control = role.control ? await serveOn(0, CONTROL_HOST, handler, false) : undefined;
  return {
    url: main.url,
    ...(control === undefined ? {} : { controlUrl: control.url }),
    shutdown: () => Promise.all([main.server.shutdown(), control?.server.shutdown()]).then(() => undefined),
  };
}
