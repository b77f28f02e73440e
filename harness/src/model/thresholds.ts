/**
 * The figures a cell's flags and remarks are decided at (bench/cell-status.ts) and the reports'
 * legends quote: one definition each, below both.
 */

/**
 * Client CPU (100 = one full core) at or above which the load generator, not the server,
 * is likely the bottleneck: autocannon is single-threaded, so near one core it cannot send faster.
 */
export const CLIENT_BOUND_CPU_PERCENT = 90;

/** CV of requests/s across runs above which the median is too noisy to compare closely. */
export const UNSTABLE_CV = 0.1;

/**
 * Autocannon at or above this fraction of wrk's requests/s counts as reaching the server's
 * ceiling: run-to-run noise of 2 s runs on a shared 2-core machine is several percent, so a
 * tighter bar would flip on noise, and a looser one would hide a client worth fixing.
 */
export const CEILING_OK_RATIO = 0.9;

/** Below this Jain index a cell's connections were served unevenly enough to say so. */
export const UNFAIR_JAIN = 0.9;

/**
 * A cell whose page faults took at least this share of the server's CPU per request says so: its
 * figure then measures the host's memory handling as much as the endpoint (on a VM, 14-17 µs a
 * fresh page; docs/methodology.md), and --allocator keep shows the endpoint without it.
 */
export const PAGE_FAULT_SHARE = 0.2;
