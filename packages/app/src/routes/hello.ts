import { health, HELLO_TEXT } from '../identity.ts';
import type { RouteGroup } from './context.ts';

export const helloRoutes: RouteGroup = (app, { config }) => {
  const { cluster, pools } = config;
  const extras = { ...(cluster === undefined ? {} : { cluster }), ...(pools === undefined ? {} : { pools }) };
  app.get('/hello', (c) => c.text(HELLO_TEXT));
  app.get('/health', (c) => c.json(health(config.runtime, config.version, config.pid, 'hono', extras)));
};
