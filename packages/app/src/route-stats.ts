export interface RouteCounter {
  count: number;
  avgMs: number;
  /** Answers per connection (keyed by the client's port), where the runtime tells the port. */
  perConnection?: Record<string, number>;
}

/**
 * Connections tracked per route; past this, answers still count in `count` but not per
 * connection (a bound on memory when a client opens connection after connection).
 */
export const MAX_TRACKED_CONNECTIONS = 10_000;

/** Per-route request count and mean handler time since the last reset, and what is in flight. */
export class RouteStats {
  private readonly totals = new Map<string, { count: number; totalMs: number; peers: Map<number, number> }>();
  since = new Date();
  /**
   * Requests being handled right now (not reset: they are still running). The harness waits for
   * zero between loads, so work queued by one run (bcrypt jobs, worker jobs) never lands in the next.
   */
  inFlight = 0;

  record(route: string, ms: number, peerPort?: number): void {
    let entry = this.totals.get(route);
    if (entry === undefined) {
      entry = { count: 0, totalMs: 0, peers: new Map() };
      this.totals.set(route, entry);
    }
    entry.count++;
    entry.totalMs += ms;
    if (peerPort === undefined) return;
    const seen = entry.peers.get(peerPort);
    if (seen !== undefined) entry.peers.set(peerPort, seen + 1);
    else if (entry.peers.size < MAX_TRACKED_CONNECTIONS) entry.peers.set(peerPort, 1);
  }

  reset(): void {
    this.totals.clear();
    this.since = new Date();
  }

  snapshot(): Record<string, RouteCounter> {
    const out: Record<string, RouteCounter> = {};
    for (const [route, { count, totalMs, peers }] of this.totals) {
      out[route] = {
        count,
        avgMs: Math.round((totalMs / count) * 1000) / 1000,
        ...(peers.size === 0 ? {} : { perConnection: Object.fromEntries(peers) }),
      };
    }
    return out;
  }
}
