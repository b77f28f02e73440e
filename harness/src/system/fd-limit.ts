import { readFileSync } from 'node:fs';

/** Sockets the harness needs beside the load's connections: probe, /stats calls, files, pipes. */
const HEADROOM = 256;

/** The open-files limit of this process (servers inherit it), from /proc; undefined elsewhere. */
export function openFilesLimit(limits: string | undefined = readLimits()): { soft: number; hard: number } | undefined {
  const match = limits === undefined ? null : /^Max open files\s+(\S+)\s+(\S+)/m.exec(limits);
  if (match === null) return undefined;
  const parse = (v: string | undefined) => (v === 'unlimited' ? Number.POSITIVE_INFINITY : Number(v));
  return { soft: parse(match[1]), hard: parse(match[2]) };
}

/**
 * Node cannot raise its own limit, so the bench script raises the soft limit to the hard one
 * before starting (`ulimit -n $(ulimit -Hn)`); this says so when that was not enough.
 */
export function fdWarning(connections: number, limit = openFilesLimit()): string | undefined {
  if (limit === undefined || connections + HEADROOM <= limit.soft) return undefined;
  const raise =
    limit.hard > limit.soft
      ? `raise it with \`ulimit -n ${limit.hard}\``
      : `the hard limit is ${limit.hard}: raise it as root (ulimit -Hn, limits.conf)`;
  return `${connections} connections need about ${connections + HEADROOM} open files, but the limit is ${limit.soft}; ${raise}, or expect connection errors`;
}

function readLimits(): string | undefined {
  try {
    return readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return undefined;
  }
}
