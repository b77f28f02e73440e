/**
 * Every process group the harness started and has not yet stopped (servers, browsers, the ssh
 * sessions of remote servers), so that a forced stop (a second Ctrl-C) can kill them all at
 * once, synchronously, before the harness exits: it cannot wait for the orderly stops.
 */
const groups = new Set<number>();

/** Remembers a process group (its leader's pid) from the moment it is spawned. */
export function trackGroup(pid: number): void {
  groups.add(pid);
}

export function untrackGroup(pid: number): void {
  groups.delete(pid);
}

/** SIGKILL to every group still tracked (SIGCONT first: a stopped group acts on nothing else). */
export function killGroupsNow(): void {
  for (const pid of groups) {
    for (const signal of ['SIGCONT', 'SIGKILL'] as const) {
      try {
        process.kill(-pid, signal);
      } catch {
        // ESRCH: the group is already gone.
      }
    }
  }
  groups.clear();
}
