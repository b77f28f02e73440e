// The size of libuv's thread pool for one Node server process, from its own argv and the CPUs
// it may use. Plain CommonJS: it runs as a --require preload, before any loader, because libuv
// reads UV_THREADPOOL_SIZE when its pool first starts, which Node's ESM loader does before the
// entrypoint runs (setting it from server.ts changed nothing: measured).
// Must agree with threadpoolSizeFor() in packages/app/src/server-args.ts (a unit test checks).
'use strict';

const LIBUV_DEFAULT = 4;
const LIBUV_MAX = 1024;

function flag(argv, name) {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === name) return argv[i + 1];
    if (argv[i].startsWith(`${name}=`)) return argv[i].slice(name.length + 1);
  }
  return undefined;
}

/** { size, source } for the given server argv, environment and CPU count. */
function threadpoolFor(argv, env, cpus) {
  const given = flag(argv, '--threadpool');
  if (given !== undefined && /^\d+$/.test(given) && Number(given) >= 1) {
    return { size: Math.min(LIBUV_MAX, Number(given)), source: 'flag' };
  }
  // Inherited from our own preload in a cluster primary: keep its size and its source.
  if (env.UV_THREADPOOL_SIZE !== undefined && env.BENCH_THREADPOOL_SOURCE !== undefined) {
    return { size: Number(env.UV_THREADPOOL_SIZE), source: env.BENCH_THREADPOOL_SOURCE };
  }
  if (env.UV_THREADPOOL_SIZE !== undefined && /^\d+$/.test(env.UV_THREADPOOL_SIZE)) {
    return { size: Math.min(LIBUV_MAX, Math.max(1, Number(env.UV_THREADPOOL_SIZE))), source: 'env' };
  }
  const raw = flag(argv, '--processes');
  const processes = raw === 'auto' ? cpus : raw !== undefined && /^\d+$/.test(raw) ? Math.max(1, Number(raw)) : 1;
  const share = Math.max(1, Math.ceil(Math.max(1, Math.floor(cpus)) / processes));
  return { size: Math.min(LIBUV_MAX, Math.max(LIBUV_DEFAULT, share)), source: 'default' };
}

module.exports = { threadpoolFor };
