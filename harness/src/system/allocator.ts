/**
 * `--keep-freed-memory`: environment variables that tell each runtime's allocator to
 * keep the memory it frees instead of handing it back to the kernel, so a request's new buffer
 * reuses pages already mapped rather than faulting in fresh ones. glibc's malloc serves Node and
 * Deno (a fixed mmap threshold of 64 MB and trim threshold of 1 GB: a 5 MB buffer comes from the
 * heap, and the heap is not trimmed); mimalloc serves Bun (purge delay -1: never purge; the older
 * names of the same setting beside it). On a VM where a fresh page costs 14-17 µs,
 * /file/* cells served 2.4 to 7x more with these set and Bun's intervals went from ±9-22 % to
 * ±3-4 % (docs/methodology.md). Off by default: the default measures the runtimes as they ship.
 */
export const KEEP_FREED_MEMORY_ENV: Readonly<Record<string, string>> = {
  MALLOC_MMAP_THRESHOLD_: String(64 * 1024 * 1024),
  MALLOC_TRIM_THRESHOLD_: String(1024 * 1024 * 1024),
  MIMALLOC_PURGE_DELAY: '-1',
  MIMALLOC_ALLOW_DECOMMIT: '0',
  MIMALLOC_PAGE_RESET: '0',
};
