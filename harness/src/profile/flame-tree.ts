import type { FlameNode } from '../model/profile.ts';
import { type CpuProfile, frameKey, IDLE, type Key, memo, ROOT, upperMedian } from './cpu-profile.ts';

/**
 * The window's call tree for a flame graph: time on each stack path from the root, children
 * merged by function, paths under `minShare` of the window (and below `maxDepth`) left out so
 * a report stays small. The VM's idle entry is left out: the graph shows the work.
 */
export function flameTree(
  profile: CpuProfile,
  options: { fromUs?: number; toUs?: number; minShare?: number; maxDepth?: number } = {},
): FlameNode {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const gaps = profile.timeDeltas.slice(1).filter((d) => d > 0);
  const cap = (upperMedian(gaps) ?? 0) * 4;
  const from = options.fromUs ?? 0;
  const to = options.toUs ?? profile.endTime - profile.startTime;
  const maxDepth = options.maxDepth ?? 48;
  const root: FlameNode = { name: 'all', ms: 0, children: [] };
  const pathOf = memo((id: number): Key[] => {
    const path: Key[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const k = frameKey(byId.get(at)?.callFrame);
      if (k.name !== ROOT) path.push(k);
    }
    return path.reverse();
  });
  let t = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    if (t < from || t >= to) continue;
    const next = profile.timeDeltas[i + 1];
    const us = Math.min(next === undefined ? cap / 4 : Math.max(0, next), cap);
    const path = pathOf(profile.samples[i] ?? 0);
    if (path[0]?.name === IDLE) continue;
    root.ms += us;
    let at = root;
    for (const k of path.slice(0, maxDepth)) {
      let child = at.children.find((c) => c.name === k.name && c.where === k.where);
      if (child === undefined) {
        child = { name: k.name, ...(k.where === undefined ? {} : { where: k.where }), ms: 0, children: [] };
        at.children.push(child);
      }
      child.ms += us;
      at = child;
    }
  }
  const floor = Math.max(0, to - from) * (options.minShare ?? 0.005);
  const prune = (node: FlameNode): FlameNode => ({
    ...node,
    ms: Math.round(node.ms) / 1000,
    children: node.children
      .filter((c) => c.ms >= floor)
      .sort((a, b) => b.ms - a.ms)
      .map(prune),
  });
  return prune(root);
}
