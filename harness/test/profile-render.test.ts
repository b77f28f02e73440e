import { describe, expect, it } from 'vitest';
import type { CellProfile, ProfileFunction, ProfileSummary } from '../src/model/profile.ts';
import { flameSvg, profileHtml, profileMarkdown, profileSentences } from '../src/report/render/profile.ts';
import { loopSentence } from '../src/report/text/sentences.ts';
import { heldSentence, profileEvidence } from '../src/report/text/profile.ts';
import { makeCell } from './fixtures.ts';

const fn = (name: string, where: string | undefined, selfShare: number): ProfileFunction => ({
  name,
  ...(where === undefined ? {} : { where }),
  kind: where === undefined ? 'native' : 'js',
  selfMs: selfShare * 2000,
  totalMs: selfShare * 2000,
  selfShare,
  totalShare: selfShare,
});

function summary(bySelf: ProfileFunction[], held: Partial<ProfileSummary['held']> = {}): ProfileSummary {
  return {
    windowMs: 2000,
    samples: 10_000,
    intervalUs: 200,
    busyShare: bySelf.reduce((a, f) => a + f.selfShare, 0),
    idleShare: 0.1,
    gcShare: 0,
    bySelf,
    byTotal: bySelf,
    held: { thresholdMs: 10, stretches: 0, ms: 0, share: 0, longestMs: 0, holders: [], ...held },
  };
}

function profile(s: ProfileSummary, file: string): CellProfile {
  return {
    file,
    processFile: 'profiles/node-hono/main.cpuprofile',
    windowUs: { from: 1_000_000, to: 3_000_000 },
    requestedIntervalUs: 100,
    load: { connections: 10, durationSec: 2, requestsPerSec: 80 },
    summary: s,
    flame: {
      name: 'all',
      ms: 1800,
      children: [
        {
          name: 'handler',
          where: 'src/routes.ts:12',
          ms: 1800,
          children: [{ name: 'fibPlain', where: 'workloads/fib.ts', ms: 1700, children: [] }],
        },
      ],
    },
  };
}

const held = {
  stretches: 40,
  ms: 1600,
  share: 0.8,
  longestMs: 60,
  holders: [{ name: 'fibPlain', where: 'workloads/fib.ts', kind: 'js' as const, ms: 1500, share: 0.93 }],
};
const sync = makeCell({
  runtime: 'node',
  scenario: 'fib',
  mode: 'sync',
  profile: profile(
    summary([fn('fibPlain', 'workloads/fib.ts', 0.75), fn('writeUtf8String', undefined, 0.01)], held),
    'profiles/node-hono/fib-sync.cpuprofile',
  ),
});
const worker = makeCell({
  runtime: 'node',
  scenario: 'fib',
  mode: 'worker',
  loop: { verdict: 'left', ticksShare: 0.9 },
  profile: profile(
    summary([fn('postMessage', 'node:internal/worker/io', 0.03), fn('json', 'hono/dist/context.js:120', 0.01)]),
    'profiles/node-hono/fib-worker.cpuprofile',
  ),
});
const async = makeCell({
  runtime: 'node',
  scenario: 'fib',
  mode: 'async',
  loop: { verdict: 'stayed', ticksShare: 0 },
  profile: profile(summary([fn('fibPlain', 'workloads/fib.ts', 0.61)], held), 'profiles/node-hono/fib-async.cpuprofile'),
});

describe('profile sentences', () => {
  it('names the function that held the loop and its share', () => {
    expect(heldSentence(summary([], held))).toBe(
      'main thread busy 0 %, the loop held past 10 ms for 80 % of the time, 93 % by fibPlain (workloads/fib.ts)',
    );
    expect(heldSentence(summary([fn('postMessage', 'node:internal/worker/io', 0.03)]))).toBe(
      'main thread busy 3.0 %, the loop never held past 10 ms',
    );
  });

  it("cites the main thread in the off-loop verdict: how busy, what held it, or whether sync's busiest function is still there", () => {
    expect(profileEvidence(async, sync)).toBe(
      "profile: main thread busy 61 % against sync's 76 %, held past 10 ms 80 % of the time, 93 % by fibPlain (workloads/fib.ts)",
    );
    expect(profileEvidence(worker, sync)).toBe(
      "profile: main thread busy 4.0 % against sync's 76 %, fibPlain (workloads/fib.ts) gone from it (under 1.0 %)",
    );
    const partly = { ...worker, profile: profile(summary([fn('fibPlain', 'workloads/fib.ts', 0.2)]), '') };
    expect(profileEvidence(partly, sync)).toBe(
      "profile: main thread busy 20 % against sync's 76 %, fibPlain (workloads/fib.ts) 20 % of it against sync's 75 %",
    );
    expect(loopSentence('node', worker, sync)).toContain('left the loop (90 % of an idle loop');
    expect(loopSentence('node', worker, sync)).toContain('gone from it');
    expect(profileEvidence(worker, { ...sync, profile: undefined })).toBeUndefined();
  });

  it("says where a runtime's profiler cannot see the pool's threads, and names a busy thread where it can", () => {
    expect(profileSentences([{ ...worker, runtime: 'bun' }], false)[0]).toContain('bun profiles its main thread only');
    const threads = [
      { file: 'profiles/node-hono/thread-1.cpuprofile', busyShare: 0.8, bySelf: [fn('fibPlain', 'workloads/fib.ts', 0.78)] },
    ];
    const line = profileSentences([{ ...worker, profile: { ...(worker.profile as CellProfile), threads } }], false)[0];
    expect(line).toContain('1 other thread busy (80 % fibPlain)');
  });
});

const late = (over: Partial<NonNullable<ProfileSummary['late']>>): NonNullable<ProfileSummary['late']> => ({
  thresholdMs: 10,
  stalls: 212,
  ms: 4210.4,
  share: 0.842,
  longestMs: 31,
  sampledMs: 4100,
  holders: [
    {
      name: 'fibPlain',
      where: 'workloads/fib.ts:17',
      kind: 'js',
      ms: 3650,
      share: 0.89,
      caller: { name: 'sync', where: 'scenarios/fib.ts:20', kind: 'js' },
    },
  ],
  ...over,
});
const withLate = (s: ProfileSummary, l: NonNullable<ProfileSummary['late']>): ProfileSummary => {
  const { held: _held, ...rest } = s;
  return { ...rest, late: l };
};

describe('profile sentences from the late intervals of the server', () => {
  it('names what ran while the loop was late, with how many stalls and how long', () => {
    expect(heldSentence(withLate(summary([fn('fibPlain', 'workloads/fib.ts:17', 0.9)]), late({})))).toBe(
      'main thread busy 90 %, while the loop was late (212 stalls over 10 ms, 4,210 ms in all, 84 % of the time): 89 % in fibPlain (workloads/fib.ts:17)',
    );
    expect(heldSentence(withLate(summary([]), late({ stalls: 0, ms: 0, share: 0, holders: [] })))).toBe(
      'main thread busy 0 %, the loop never late by more than 10 ms',
    );
    // A native function is named with its caller: its own name says little of whose work it was.
    const write = {
      name: 'write',
      kind: 'native' as const,
      ms: 90,
      share: 0.96,
      caller: { name: 'deflate', where: 'workloads/gzip.ts:5', kind: 'js' as const },
    };
    expect(heldSentence(withLate(summary([]), late({ stalls: 1, ms: 94, share: 0.05, holders: [write] })))).toBe(
      'main thread busy 0 %, while the loop was late (1 stall over 10 ms, 94.0 ms in all, 5.0 % of the time): 96 % in write (native) from deflate (workloads/gzip.ts:5)',
    );
  });

  it("cites the late time in the off-loop verdict, and falls back on sync's busiest function where the loop was never late", () => {
    const lateAsync = { ...async, profile: profile(withLate(summary([fn('fibPlain', 'workloads/fib.ts', 0.61)]), late({})), '') };
    expect(profileEvidence(lateAsync, sync)).toBe(
      "profile: main thread busy 61 % against sync's 76 %, while the loop was late (212 stalls over 10 ms, 4,210 ms in all, 84 % of the time): 89 % in fibPlain (workloads/fib.ts:17)",
    );
    const calm = {
      ...worker,
      profile: profile(withLate(summary([fn('postMessage', undefined, 0.03)]), late({ stalls: 0, holders: [] })), ''),
    };
    // A stall or two in a mode that left is the host's, not the mode's work: sync's function says more.
    const seldom = {
      ...worker,
      profile: profile(withLate(summary([fn('postMessage', undefined, 0.03)]), late({ stalls: 1, ms: 38, share: 0.019 })), ''),
    };
    expect(profileEvidence(seldom, sync)).toBe(
      "profile: main thread busy 3.0 % against sync's 76 %, fibPlain (workloads/fib.ts) gone from it (under 3.0 %)",
    );
    expect(profileEvidence(calm, sync)).toBe(
      "profile: main thread busy 3.0 % against sync's 76 %, fibPlain (workloads/fib.ts) gone from it (under 3.0 %)",
    );
  });

  it('tells the two figures apart in one sentence only where a report has both', () => {
    const lateSync = { ...sync, profile: profile(withLate(summary([fn('fibPlain', 'workloads/fib.ts', 0.75)]), late({})), '') };
    const raw = makeCell({ runtime: 'node', scenario: 'hello', mode: 'raw', profile: profile(summary([]), '') });
    expect(profileMarkdown([lateSync], false)).not.toContain('"held" is read from the profile alone');
    expect(profileMarkdown([lateSync, raw], false)).toContain('"held" is read from the profile alone');
    expect(profileHtml([lateSync, raw], false)).toContain('&quot;held&quot; is read from the profile alone');
  });
});

describe('profile renderers', () => {
  it('report.md: a sentence a cell, the top functions and the files', () => {
    const md = profileMarkdown([worker, sync, async], false) ?? '';
    expect(md).toContain('- node sync: main thread busy 76 %, the loop held past 10 ms for 80 % of the time, 93 % by fibPlain');
    expect(md.indexOf('node sync')).toBeLessThan(md.indexOf('node worker'));
    expect(md).toMatch(/\| node sync\s+\| fibPlain\s+\| workloads\/fib\.ts\s+\|\s+75 %/);
    expect(md).toContain('`profiles/node-hono/fib-sync.cpuprofile`');
    expect(profileMarkdown([makeCell({ runtime: 'node', scenario: 'fib', mode: 'sync' })], false)).toBeUndefined();
  });

  it('report.html: an SVG icicle a cell, sync beside its off-loop modes, nothing fetched', () => {
    const html = profileHtml([sync, async, worker], false);
    expect(html.match(/<svg /g)).toHaveLength(3);
    expect(html).not.toMatch(/<script|(src|href)="https?:/);
    expect(html).toContain('href="profiles/node-hono/fib-sync.cpuprofile"');
  });

  it('draws each frame as wide as its time under its caller, with its name and time on hover', () => {
    const svg = flameSvg(profile(summary([]), '').flame ?? { name: 'all', ms: 0, children: [] }, { width: 400 });
    expect(svg).toContain('<rect x="0.0" y="32" width="377.8"');
    expect(svg).toContain('<title>fibPlain workloads/fib.ts: 1700.0 ms (94 % of the busy time)</title>');
    expect(svg).toContain('height="48"');
    // Drawn at the main thread's busy share of the window, a graph shows work that left as narrow.
    const half = flameSvg({ name: 'all', ms: 100, children: [] }, { width: 400, share: 0.5 });
    expect(half).toContain('<rect x="0.0" y="0" width="200.0"');
  });
});
