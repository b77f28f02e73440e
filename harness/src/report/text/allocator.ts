/**
 * The state the servers' allocators were held in, as the reports say it (system/allocator.ts has
 * the settings). Older reports have no `allocator`: their servers kept freed memory when they
 * carry the settings, else ran as shipped.
 */
import type { AllocatorState, Parameters } from '../../model/parameters.ts';

export function allocatorOf(p: Pick<Parameters, 'allocator' | 'serverEnv'>): AllocatorState {
  return p.allocator ?? (p.serverEnv === undefined ? 'shipped' : 'keep');
}

const STATES: Record<AllocatorState, string> = {
  fresh: 'held fresh: every large buffer mapped fresh and unmapped when freed, the same for every request (--allocator fresh, the default)',
  keep: 'held keeping freed memory: a new buffer reuses mapped pages (--allocator keep, --keep-freed-memory)',
  shipped: 'as the runtimes ship: free to move between mapping fresh and reusing their heap (--allocator shipped)',
};

/** The "server allocators" line of the parameters. */
export function allocatorText(p: Pick<Parameters, 'allocator' | 'serverEnv'>): string {
  const settings = Object.entries(p.serverEnv ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  return `${STATES[allocatorOf(p)]}${settings === '' ? '' : `: ${settings}`}`;
}
