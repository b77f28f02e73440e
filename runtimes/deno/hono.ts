import { createApp } from '@bench/app';
import type { ServerOptions } from '@bench/app/server-args';
import { listen } from './listen.ts';

export async function start(options: ServerOptions) {
  const app = createApp(options.app);
  const { server, url } = await listen(options, app.fetch);
  return {
    url,
    async stop() {
      await server.shutdown();
      await app.close();
    },
  };
}
