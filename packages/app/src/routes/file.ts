import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { choiceParam } from '../params.ts';
import { checksum32 } from '../workloads/checksum.ts';
import type { RouteGroup } from './context.ts';

/**
 * `?body=bytes` answers the file's bytes themselves (application/octet-stream) instead of the
 * JSON summary: seed 003 measured a server that sends the file, so its cost includes the transfer.
 */
const BODIES = ['summary', 'bytes'] as const;

export const fileRoutes: RouteGroup = (app, { config, manifest }) => {
  // Paths are fixed at start-up from the manifest; a request only picks an index at random,
  // so nothing from the query string ever reaches the filesystem.
  const files = manifest.files.map((f) => ({ name: f.name, path: join(config.dataDir, f.name) }));
  const pick = () => files[Math.floor(Math.random() * files.length)] ?? files[0]!;

  app.get('/file/sync', (c) => {
    const body = choiceParam(c.req.queries('body'), 'body', 'summary', BODIES);
    const file = pick();
    const data = readFileSync(file.path);
    if (body === 'bytes') return c.body(data, 200, { 'content-type': 'application/octet-stream', 'x-file': file.name });
    return c.json({ file: file.name, bytes: data.byteLength, checksum: checksum32(data) });
  });
  app.get('/file/async', async (c) => {
    const body = choiceParam(c.req.queries('body'), 'body', 'summary', BODIES);
    const file = pick();
    const data = await readFile(file.path);
    if (body === 'bytes') return c.body(data, 200, { 'content-type': 'application/octet-stream', 'x-file': file.name });
    return c.json({ file: file.name, bytes: data.byteLength, checksum: checksum32(data) });
  });
};
