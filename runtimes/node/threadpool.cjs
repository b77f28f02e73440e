// --require preload of the Node server (see threadpool-size.cjs): sizes libuv's thread pool.
'use strict';
const { isMainThread } = require('node:worker_threads');

// Worker threads inherit the preload with Node's flags; libuv's pool is the process's, sized by
// the main thread, and each thread's environment is already a copy of the one set here.
if (isMainThread) {
  const { availableParallelism } = require('node:os');
  const { threadpoolFor } = require('./threadpool-size.cjs');

  const { size, source } = threadpoolFor(process.argv.slice(2), process.env, availableParallelism());
  process.env.UV_THREADPOOL_SIZE = String(size);
  process.env.BENCH_THREADPOOL_SOURCE = source;
}
