export interface RouteCounter {
  count: number;
  avgMs: number;
}

/** Per-route request count and mean handler time since the last reset, and what is in flight. */
export class RouteStats {
  private readonly totals = new Map<string, { count: number; totalMs: number }>();
  since = new Date();
  /**
   * Requests being handled right now (not reset: they are still running). The harness waits for
   * zero between loads, so work queued by one run (bcrypt jobs, worker jobs) never lands in the next.
   */
  inFlight = 0;

  record(route: string, ms: number): void {
    const entry = this.totals.get(route);
    if (entry === undefined) this.totals.set(route, { count: 1, totalMs: ms });
    else {
      entry.count++;
      entry.totalMs += ms;
    }
  }

  reset(): void {
    this.totals.clear();
    this.since = new Date();
  }

  snapshot(): Record<string, RouteCounter> {
    const out: Record<string, RouteCounter> = {};
    for (const [route, { count, totalMs }] of this.totals) {
      out[route] = { count, avgMs: Math.round((totalMs / count) * 1000) / 1000 };
    }
    return out;
  }
}
