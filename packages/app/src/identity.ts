import type { RuntimeName, ServerKind } from './config.ts';

/** The body of GET /health on every server, Hono or raw: who is answering. */
export interface Health {
  runtime: RuntimeName;
  version: string;
  pid: number;
  server: ServerKind;
}

export function health(runtime: RuntimeName, version: string, pid: number, server: ServerKind): Health {
  return { runtime, version, pid, server };
}

/** The body of GET /hello on every server: kept tiny so it measures the stack, not the payload. */
export const HELLO_TEXT = 'Hello World!';
