import type { ServerOptions } from '@bench/app/server-args';

/** Deno.serve, resolved once it listens, with the URL it actually bound (port 0 picks one). */
export function listen(options: ServerOptions, handler: (req: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => Response | Promise<Response>) {
  return new Promise<{ server: Deno.HttpServer<Deno.NetAddr>; url: string }>((resolve) => {
    const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve(
      {
        port: options.port,
        hostname: options.host,
        onListen: ({ hostname, port }) => {
          const host = hostname.includes(':') ? `[${hostname}]` : hostname;
          queueMicrotask(() => resolve({ server, url: `http://${host}:${port}` }));
        },
      },
      handler,
    );
  });
}
