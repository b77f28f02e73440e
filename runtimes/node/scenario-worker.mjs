// Node's scenario-pool worker entry (piscina's handler file). Node 20 does not carry tsx's loader
// hooks into worker threads, so the worker registers tsx before loading the app's TypeScript
// worker (which then imports every scenario module, the user's own .ts ones too).
import { register } from 'tsx/esm/api';

register();
const worker = await import('@bench/app/scenario-worker');
export default worker.default;
