import bcrypt from 'bcrypt';
import type { RouteGroup } from './context.ts';

/** The fixed secret every /hash request hashes; the harness verifies answers against it. */
export const HASH_SECRET = 'correct horse battery staple';

export const hashRoutes: RouteGroup = (app, { config }) => {
  const cost = config.hashCost;
  // hashSync runs on the event loop; hash runs on the native addon's thread pool.
  app.get('/hash/sync', (c) => c.json({ hash: bcrypt.hashSync(HASH_SECRET, cost), cost }));
  app.get('/hash/async', async (c) => c.json({ hash: await bcrypt.hash(HASH_SECRET, cost), cost }));
};
