// The page's Web Worker: the app's own fibSync, one job per message, answered with its id.
import { fibSync, type FibJob } from '../../../../packages/app/src/workloads/fib.ts';

interface WorkerScope {
  onmessage: ((event: { data: { id: number; job: FibJob } }) => void) | null;
  postMessage(message: unknown): void;
}
const scope = globalThis as unknown as WorkerScope;

scope.onmessage = (event) => {
  const { id, job } = event.data;
  try {
    scope.postMessage({ id, value: fibSync(job) });
  } catch (error) {
    scope.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};
