// --require preload of the Node server (see threadpool-size.cjs): sizes libuv's thread pool.
'use strict';
const { availableParallelism } = require('node:os');
const { threadpoolFor } = require('./threadpool-size.cjs');

const { size, source } = threadpoolFor(process.argv.slice(2), process.env, availableParallelism());
process.env.UV_THREADPOOL_SIZE = String(size);
process.env.BENCH_THREADPOOL_SOURCE = source;
