/**
 * --cold with the servers on another host: the file scenario's files are evicted from the page
 * cache *there*, and verified there with fincore, in one ssh call before each file run (outside
 * the measured window). The same rules as system/page-cache.ts: fadvise first (GNU dd
 * iflag=nocache count=0 drops a whole file's pages), drop_caches when the files stay cached,
 * cold only when at most 5 % of the bytes are still resident afterwards.
 */
import type { ColdCacheSupport } from '../system/page-cache.ts';
import { sshRun } from './ssh.ts';
import type { RemoteTarget } from '../servers/server-host.ts';

const MAX_RESIDENT = 0.05;

/** Prints method=, before=, after= (resident fraction) or reason=. $@: the files. */
const EVICT = `command -v fincore >/dev/null 2>&1 || { echo "reason=fincore (util-linux) is not installed on the server host"; exit 0; }
resident() { fincore --bytes --noheadings --output RES,SIZE -- "$@" 2>/dev/null | awk '{r+=$1; s+=$2} END {if (s > 0) printf "%.4f", r/s; else print "x"}'; }
for f; do [ -r "$f" ] || { echo "reason=cannot read $f on the server host"; exit 0; }; done
before=$(resident "$@")
sync -- "$@" 2>/dev/null || sync
method=fadvise
for f; do dd if="$f" iflag=nocache count=0 status=none 2>/dev/null || method=none; done
after=$(resident "$@")
if [ "$method" = none ] || [ "$after" = x ] || [ "$(awk -v a="$after" 'BEGIN {print (a > ${MAX_RESIDENT})}')" = 1 ]; then
  if echo 1 > /proc/sys/vm/drop_caches 2>/dev/null; then method=drop_caches; after=$(resident "$@"); fi
fi
echo "method=$method"; echo "before=$before"; echo "after=$after"`;

export interface RemoteEviction {
  ok: boolean;
  method?: 'fadvise' | 'drop_caches';
  residentAfter?: number;
  reason?: string;
}

export async function remoteEvictAndVerify(target: RemoteTarget, paths: string[]): Promise<RemoteEviction> {
  const out = await sshRun(target, ['sh', '-c', EVICT, 'bench-evict', ...paths], 60_000);
  if (out.code !== 0)
    return { ok: false, reason: `eviction over ssh failed (exit ${out.code}): ${out.stderr.trim().split('\n').at(-1) ?? ''}` };
  const kv = new Map(out.stdout.split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1).trim()] as const));
  const reason = kv.get('reason');
  if (reason !== undefined) return { ok: false, reason };
  const method = kv.get('method');
  const after = Number(kv.get('after'));
  if (method !== 'fadvise' && method !== 'drop_caches')
    return { ok: false, reason: 'neither fadvise nor drop_caches worked on the server host' };
  if (!Number.isFinite(after)) return { ok: false, method, reason: 'eviction not verified: fincore gave no figure on the server host' };
  if (after > MAX_RESIDENT)
    return {
      ok: false,
      method,
      residentAfter: after,
      reason: `${Math.round(after * 100)} % of the bytes still cached on the server host after ${method}`,
    };
  return { ok: true, method, residentAfter: after };
}

/** Whether --cold can be honoured on the server host: one verified eviction of the run's files. */
export async function remoteColdSupport(target: RemoteTarget, paths: string[]): Promise<ColdCacheSupport> {
  const result = await remoteEvictAndVerify(target, paths);
  return result.ok && result.method !== undefined
    ? { ok: true, method: result.method }
    : { ok: false, reason: result.reason ?? 'eviction failed on the server host' };
}
