// A fixed number of requests at a fixed concurrency: what the server does per request is counted,
// not how fast, so the client only has to be the same every time (not fast, not open-loop).
import { Agent, get } from 'node:http';

export interface Batch {
  url: string;
  path: string;
  count: number;
  concurrency: number;
}

/**
 * Sends `count` GETs over `concurrency` keep-alive connections opened for this batch alone (and
 * closed after it), so every batch costs the server the same connection set-ups whatever came
 * before. Rejects on the first answer that is not a 200.
 */
export async function sendBatch(batch: Batch, signal?: AbortSignal): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: batch.concurrency });
  let issued = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = get(`${batch.url}${batch.path}`, { agent, ...(signal === undefined ? {} : { signal }) }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${batch.path} answered ${res.statusCode}`))));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  const worker = async () => {
    while (issued < batch.count) {
      issued++;
      await one();
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(batch.concurrency, batch.count) }, worker));
  } finally {
    agent.destroy();
  }
}
