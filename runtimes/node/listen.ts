import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SERVER_IDLE_TIMEOUT_SEC } from '@bench/app/server-args';

/** The timeouts every runtime's server shares (see SERVER_IDLE_TIMEOUT_SEC). */
export function applyTimeouts(server: Server): void {
  server.keepAliveTimeout = SERVER_IDLE_TIMEOUT_SEC * 1000;
  // 0 disables them: a request waiting for a blocked loop is answered, never cut off.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
}

type AnyServer = Pick<Server, 'once' | 'address' | 'close'> & { closeAllConnections?: () => void };

export function listening(server: AnyServer, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const done = () => {
      const { port } = server.address() as AddressInfo;
      resolve(`http://${host.includes(':') ? `[${host}]` : host}:${port}`);
    };
    if (server.address() !== null) return done();
    server.once('listening', done);
    server.once('error', reject);
  });
}

export function closeServer(server: AnyServer): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Keep-alive connections would otherwise hold close() open until they time out.
    server.closeAllConnections?.();
  });
}
