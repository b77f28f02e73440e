// Node's scenario-pool worker entry (piscina's handler file). CommonJS because piscina require()s
// its handler file before it tries import(): under tsx, require() of an ES module with top-level
// await made tsx try to turn it into CommonJS in every thread, which started an esbuild service
// (a thread and a process) per pool thread just to fail. piscina awaits `default`, so the thread
// takes no task before the app's worker has loaded every scenario module and run its setup().
'use strict';

/**
 * Since Node 22.2, hooks registered with --import reach worker threads (one hooks thread for all);
 * Node 20 does not carry them, so there the thread registers tsx itself. Registering it twice
 * would run every import of the thread through two tsx loaders.
 */
function hooksReachWorkers() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 2);
}

async function load() {
  if (!hooksReachWorkers()) (await import('tsx/esm/api')).register();
  return (await import('@bench/app/scenario-worker')).default;
}

exports.__esModule = true;
exports.default = load();
