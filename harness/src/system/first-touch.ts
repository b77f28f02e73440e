import type { FirstTouch } from '../model/environment.ts';
import { median } from '../stats/stats.ts';

const PAGE = 4096;

/**
 * What touching fresh memory costs on this host: fresh buffers of `mb` MB, one byte
 * written per 4 KB page, timed, with the minor page faults the kernel counted. On bare metal a
 * first touch costs about a microsecond a page; a VM whose host takes back the guest's free
 * memory (a balloon, free-page reporting) pays the host's fault too: this VM measured
 * 14-17 µs. `/file/*` reads each 5 MB file into a new buffer, so its cells move with
 * this cost from one boot to the next while compute cells do not (docs/methodology.md).
 * Measured in this process; undefined where the runtime cannot count page faults, or where no
 * round got fresh pages (a page fault for at least half of them).
 */
export function measureFirstTouch(mb = 8, rounds = 3): FirstTouch | undefined {
  if (typeof process.resourceUsage !== 'function') return undefined;
  const perPage: number[] = [];
  const faultShare: number[] = [];
  const pages = (mb * 1024 * 1024) / PAGE;
  for (let r = 0; r < rounds; r++) {
    // A new ArrayBuffer is zero-filled by the allocator's fresh mapping: its pages are not yet there.
    const bytes = new Uint8Array(new ArrayBuffer(mb * 1024 * 1024));
    const faultsBefore = process.resourceUsage().minorPageFault;
    const started = performance.now();
    for (let i = 0; i < bytes.length; i += PAGE) bytes[i] = 1;
    const ms = performance.now() - started;
    const share = (process.resourceUsage().minorPageFault - faultsBefore) / pages;
    // A round the allocator served from memory it already had mapped touched no fresh page: left out.
    if (share < 0.5) continue;
    perPage.push((ms * 1000) / pages);
    faultShare.push(share);
  }
  if (perPage.length === 0) return undefined;
  const us = median(perPage);
  return {
    usPerPage: Math.round(us * 100) / 100,
    gbPerSec: Math.round((PAGE / (us * 1e-6) / 1e9) * 100) / 100,
    faultsPerPage: Math.round(median(faultShare) * 100) / 100,
    rounds: perPage.length,
    mb,
  };
}
