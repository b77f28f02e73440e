// Runs inside each thread of the fib pool: one job at a time, answer posted back with its id.
import { parentPort } from 'node:worker_threads';
import { fibSync } from './fib.ts';
import type { PoolRequest, PoolResponse } from './fib-pool.ts';

if (parentPort === null) throw new Error('fib-worker.ts must run as a worker thread');
const port = parentPort;

port.on('message', (request: PoolRequest) => {
  let response: PoolResponse;
  try {
    response = { id: request.id, value: fibSync(request.job) };
  } catch (error) {
    response = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(response);
});
