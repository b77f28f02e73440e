// Node's fib-pool worker entry. Node 20 does not carry tsx's loader hooks into worker threads,
// so the worker registers tsx itself before loading the app's TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('@bench/app/fib-worker');
