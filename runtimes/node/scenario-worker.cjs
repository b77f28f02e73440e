// Node's scenario-pool worker entry (piscina's handler file). CommonJS because piscina require()s
// its handler file before it tries import(): under tsx, require() of an ES module with top-level
// await made tsx try to turn it into CommonJS in every thread, which started an esbuild service
// (a thread and a process) per pool thread just to fail. piscina awaits `default`, so the thread
// takes no task before the app's worker has loaded the scenario modules it serves and run their setup().
'use strict';

/**
 * From Node 22.2 on, a worker thread already loads through the tsx hooks the server was started
 * with (--import is among the flags threads inherit; checked on the pinned 24 and 26); Node 20's
 * threads do not, so there the thread registers tsx itself. Registering it where the hooks are
 * already there would run every import of the thread through two tsx loaders.
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
