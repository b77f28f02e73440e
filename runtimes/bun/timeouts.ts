/**
 * Bun closes a connection idle for 10 s by default, and a request queued behind blocking work
 * counts as idle: under sync load that shows up as errors on Bun only. Node keeps a connection
 * whose request is waiting; 255 s (Bun's maximum) is the closest Bun gets to that.
 */
export const SERVER_IDLE_TIMEOUT_S = 255;
