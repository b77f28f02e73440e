import type { Hono } from 'hono';
import type { AppConfig } from '../config.ts';
import type { LagSampler } from '../lag-sampler.ts';
import type { RouteStats } from '../route-stats.ts';
import type { ScenarioPool } from '../workloads/scenario-pool.ts';

/** What the route groups share: the config and the app's long-lived parts. */
export interface AppContext {
  config: AppConfig;
  pool: ScenarioPool;
  stats: RouteStats;
  lag: LagSampler;
}

/** A scenario's routes: one function that adds them to the app. */
export type RouteGroup = (app: Hono, ctx: AppContext) => void;
