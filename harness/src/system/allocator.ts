import type { AllocatorState } from '../model/parameters.ts';

/**
 * The state the servers' allocators are held in (`--allocator`), as environment variables each
 * runtime's allocator reads at start. glibc's malloc serves Node and Deno, mimalloc serves Bun.
 *
 * As shipped, glibc maps every block of 128 KB or more fresh from the kernel and unmaps it when
 * freed, then raises that threshold (and the trim threshold with it) once a mapped block is freed,
 * so later 5 MB file buffers reuse the heap's pages, until a trim gives them back. Which of the two
 * a run catches moved a file cell's page faults a request by 2 to 5x from run to run, and its
 * requests/s with them (docs/methodology.md, "File cells and the cost of a page fault"): the
 * answer depended on the allocator's history, not on the endpoint. Setting the threshold turns the
 * adjustment off, so each state below is one the allocator stays in for the whole run.
 */

/**
 * `fresh` (the default): glibc's mmap threshold fixed at its starting 128 KB, so every large buffer
 * is mapped fresh and unmapped when freed, request after request; mimalloc purges what is freed at
 * once (purge delay 0; the older name beside it), so its next large block faults in fresh pages
 * too. Measured: every runtime's faults a request constant from run to run (Bun 1,348 to 1,355,
 * where as shipped 54 to 281), Bun's and Deno's file cells within ±2 to ±4 % (as shipped up to
 * ±27 %); the price is the faults, a quarter to two fifths of file/sync's requests/s.
 */
const FRESH_ENV: Readonly<Record<string, string>> = {
  MALLOC_MMAP_THRESHOLD_: String(128 * 1024),
  MIMALLOC_PURGE_DELAY: '0',
  MIMALLOC_RESET_DELAY: '0',
};

/**
 * `keep` (`--keep-freed-memory`): freed memory kept instead of handed back to the kernel, so a
 * request's new buffer reuses pages already mapped. glibc: a fixed mmap threshold of 64 MB and
 * trim threshold of 1 GB (a 5 MB buffer comes from the heap, and the heap is not trimmed);
 * mimalloc: purge delay -1 (never purge; the older names of the same setting beside it). Faster
 * where a fresh page is dear, but Node's and Deno's heaps still move (Deno file/sync 36 to 122
 * faults a request), so their file cells stay wide.
 */
const KEEP_ENV: Readonly<Record<string, string>> = {
  MALLOC_MMAP_THRESHOLD_: String(64 * 1024 * 1024),
  MALLOC_TRIM_THRESHOLD_: String(1024 * 1024 * 1024),
  MIMALLOC_PURGE_DELAY: '-1',
  MIMALLOC_ALLOW_DECOMMIT: '0',
  MIMALLOC_PAGE_RESET: '0',
};

/** The variables a state adds to every server's environment; none for `shipped`. */
export function allocatorEnv(state: AllocatorState): Readonly<Record<string, string>> | undefined {
  if (state === 'fresh') return FRESH_ENV;
  if (state === 'keep') return KEEP_ENV;
  return undefined;
}
