// Worker threads do not go through Vitest's transform, and Node 20 cannot load the app's
// TypeScript worker by itself: register tsx first, as runtimes/node/scenario-worker.mjs does.
import { register } from 'tsx/esm/api';

register();
const worker = await import('../src/workloads/scenario-worker.ts');
export default worker.default;
