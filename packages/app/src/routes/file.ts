import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checksum32 } from '../workloads/checksum.ts';
import type { RouteGroup } from './context.ts';

export const fileRoutes: RouteGroup = (app, { config, manifest }) => {
  // Paths are fixed at start-up from the manifest; a request only picks an index at random,
  // so nothing from the query string ever reaches the filesystem.
  const files = manifest.files.map((f) => ({ name: f.name, path: join(config.dataDir, f.name) }));
  const pick = () => files[Math.floor(Math.random() * files.length)] ?? files[0]!;

  app.get('/file/sync', (c) => {
    const file = pick();
    const data = readFileSync(file.path);
    return c.json({ file: file.name, bytes: data.byteLength, checksum: checksum32(data) });
  });
  app.get('/file/async', async (c) => {
    const file = pick();
    const data = await readFile(file.path);
    return c.json({ file: file.name, bytes: data.byteLength, checksum: checksum32(data) });
  });
};
