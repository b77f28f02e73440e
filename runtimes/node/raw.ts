import { createServer } from 'node:http';
import { health, HELLO_TEXT } from '@bench/app/identity';
import type { ServerOptions } from '@bench/app/server-args';
import { applyTimeouts, closeServer, listening } from './listen.ts';

/** node:http with no framework: the floor Hono's overhead is measured against. */
export async function start(options: ServerOptions) {
  const identity = JSON.stringify(health('node', options.app.version, options.app.pid, 'raw'));
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path === '/hello') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=UTF-8' }).end(HELLO_TEXT);
    } else if (path === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(identity);
    } else {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `no route ${req.method} ${path}` }));
    }
  });
  applyTimeouts(server);
  server.listen(options.port, options.host);
  const url = await listening(server, options.host);
  return { url, stop: () => closeServer(server) };
}
