/**
 * The page's two scripts, bundled by esbuild from the app's own fib module (packages/app), and a
 * loopback HTTP server (port 0) that serves them: a worker needs an http origin, file:// refuses it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const PAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), 'page');

async function bundle(entry: string): Promise<string> {
  const out = await build({
    entryPoints: [join(PAGE_DIR, entry)],
    bundle: true,
    write: false,
    format: 'iife',
    target: 'es2022',
    platform: 'browser',
  });
  const file = out.outputFiles[0];
  if (file === undefined) throw new Error(`esbuild produced nothing for ${entry}`);
  return file.text;
}

const HTML = '<!doctype html><meta charset="utf-8"><title>fib-loading</title><script src="./page.js"></script>';

export interface PageServer {
  url: string;
  close(): Promise<void>;
}

export async function servePage(): Promise<PageServer> {
  const files = new Map<string, { type: string; body: string }>([
    ['/', { type: 'text/html', body: HTML }],
    ['/page.js', { type: 'text/javascript', body: await bundle('page-entry.ts') }],
    ['/worker.js', { type: 'text/javascript', body: await bundle('worker-entry.ts') }],
  ]);
  const server: Server = createServer((req, res) => {
    const file = files.get((req.url ?? '/').split('?')[0] ?? '/');
    if (file === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
