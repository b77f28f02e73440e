import { createServer, type RequestListener, type Server } from 'node:http';
import { ALONE, CONTROL_HOST, type Listening, type ListenRole } from '@bench/app/cluster';
import { health, HELLO_TEXT } from '@bench/app/identity';
import type { ServerOptions } from '@bench/app/server-args';
import { applyTimeouts, closeServer, listening } from './listen.ts';

/** node:http with no framework: the floor Hono's overhead is measured against. */
export async function start(options: ServerOptions, role: ListenRole = ALONE): Promise<Listening> {
  const { cluster, pools, pid } = options.app;
  const identity = () =>
    JSON.stringify(
      health('node', options.app.version, pid, 'raw', {
        ...(cluster === undefined ? {} : { cluster }),
        ...(pools === undefined ? {} : { pools }),
      }),
    );
  const handler: RequestListener = (req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path === '/hello') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=UTF-8' }).end(HELLO_TEXT);
    } else if (path === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(identity());
    } else {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `no route ${req.method} ${path}` }));
    }
  };
  const server = createServer(handler);
  applyTimeouts(server);
  server.listen(options.port, options.host);
  const url = await listening(server, options.host);
  let control: Server | undefined;
  let controlUrl: string | undefined;
  if (role.control) {
    control = createServer(handler);
    control.listen({ port: 0, host: CONTROL_HOST, exclusive: true });
    controlUrl = await listening(control, CONTROL_HOST);
  }
  return {
    url,
    ...(controlUrl === undefined ? {} : { controlUrl }),
    stop: async () => {
      await Promise.all([closeServer(server), control === undefined ? undefined : closeServer(control)]);
    },
  };
}
