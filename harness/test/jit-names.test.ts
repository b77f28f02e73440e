import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { valgrindWarnings } from '../src/measure/instructions.ts';
import { keepJitMap } from '../src/measure/jit-map.ts';
import { isJitDump, jitLookup, nameJitFrames, parseJitDump, parsePerfMap } from '../src/measure/jit-names.ts';

/** A jitdump file as JavaScriptCore writes one: header, then code-load and code-move records. */
function jitDump(records: ({ load: [bigint, number, string, bigint] } | { move: [bigint, bigint, bigint] })[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const header = new DataView(new ArrayBuffer(40));
  header.setUint32(0, 0x4a695444, true);
  header.setUint32(4, 1, true);
  header.setUint32(8, 40, true);
  parts.push(new Uint8Array(header.buffer));
  for (const r of records) {
    if ('load' in r) {
      const [addr, size, name, index] = r.load;
      const nameBytes = new TextEncoder().encode(`${name}\0`);
      const code = new Uint8Array(size);
      const v = new DataView(new ArrayBuffer(56));
      v.setUint32(0, 0, true);
      v.setUint32(4, 56 + nameBytes.length + code.length, true);
      v.setBigUint64(24, addr, true); // vma
      v.setBigUint64(32, addr, true);
      v.setBigUint64(40, BigInt(size), true);
      v.setBigUint64(48, index, true);
      parts.push(new Uint8Array(v.buffer), nameBytes, code);
    } else {
      const [from, to, index] = r.move;
      const v = new DataView(new ArrayBuffer(72));
      v.setUint32(0, 1, true);
      v.setUint32(4, 72, true);
      v.setBigUint64(32, from, true);
      v.setBigUint64(40, to, true);
      v.setBigUint64(48, 16n, true);
      v.setBigUint64(56, index, true);
      parts.push(new Uint8Array(v.buffer));
    }
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

describe('parsePerfMap', () => {
  it('reads start, size and name, names with spaces kept whole', () => {
    expect(parsePerfMap('1a25000 3f8 Builtin:DeoptimizationEntry_Eager\n180bd7c0 40 JS:+emit node:events:489:44\n\nnot a line\n')).toEqual([
      { start: 0x1a25000, size: 0x3f8, name: 'Builtin:DeoptimizationEntry_Eager' },
      { start: 0x180bd7c0, size: 0x40, name: 'JS:+emit node:events:489:44' },
    ]);
  });
});

describe('parseJitDump', () => {
  it('reads code loads and moves, and stops at a record cut short', () => {
    const bytes = jitDump([
      { load: [0x7000n, 32, 'JSC-Baseline: fib#Ab', 1n] },
      { load: [0x8000n, 16, 'JSC-DFG: fib#Ab', 2n] },
      { move: [0x8000n, 0x9000n, 2n] },
    ]);
    expect(isJitDump(bytes)).toBe(true);
    expect(parseJitDump(bytes)).toEqual([
      { start: 0x7000, size: 32, name: 'JSC-Baseline: fib#Ab' },
      { start: 0x8000, size: 16, name: 'JSC-DFG: fib#Ab' },
      { start: 0x9000, size: 16, name: 'JSC-DFG: fib#Ab' },
    ]);
    expect(parseJitDump(bytes.subarray(0, bytes.length - 10))).toHaveLength(2);
  });
  it('refuses a file that is not one', () => {
    expect(isJitDump(new TextEncoder().encode('1a25000 3f8 x\n'))).toBe(false);
    expect(() => parseJitDump(new TextEncoder().encode('1a25000 3f8 x\n'))).toThrow(/jitdump/);
  });
});

describe('jitLookup', () => {
  const lookup = jitLookup([
    { start: 0x1000, size: 0x100, name: 'old' },
    { start: 0x2000, size: 0x800, name: 'long' },
    { start: 0x1000, size: 0x80, name: 'new' },
  ]);
  it('names an address inside a code object, the one written last where two hold it', () => {
    expect(lookup(0x1010)).toBe('new');
    expect(lookup(0x10a0)).toBe('old');
    expect(lookup(0x27ff)).toBe('long');
  });
  it('names nothing outside every code object', () => {
    expect(lookup(0x0fff)).toBeUndefined();
    expect(lookup(0x1100)).toBeUndefined();
    expect(lookup(0x2800)).toBeUndefined();
  });
});

describe('nameJitFrames', () => {
  const dump = [
    'events: Ir',
    'positions: line',
    'ob=(1) /bin/runtime',
    'fn=(1) main',
    '0 10',
    'cob=(2) ???',
    'cfn=(2) 0x0000000000001010',
    'calls=5 0',
    '0 500',
    'ob=(2)',
    'fn=(2)',
    '0 300',
    '+1 200',
    "fn=(3) 0x0000000000005000'2",
    '0 40',
    'ob=(1)',
    'fn=(4) 0x0000000000001020',
    '0 7',
    'totals: 550',
  ].join('\n');
  const named = nameJitFrames(dump, jitLookup([{ start: 0x1000, size: 0x40, name: 'JS:*fib file.ts:9' }]));
  it('renames the first use of each address-only name, keeping the address', () => {
    expect(named.text).toContain('cfn=(2) JS:*fib file.ts:9 [0x0000000000001010]');
    expect(named.text).toContain("fn=(3) 0x0000000000005000'2");
    expect(named.text).toContain('fn=(1) main');
  });
  it('counts JIT code’s own instructions, and how many it named (a call’s cost is not its caller’s own; a stripped binary’s addresses are not JIT code)', () => {
    expect(named.jitInstructions).toBe(540);
    expect(named.namedInstructions).toBe(500);
  });
});

describe('keepJitMap', () => {
  const dumpText =
    'events: Ir\npositions: line\nob=(1) ???\nfn=(1) 0x0000000000001010\n0 30\nfn=(2) 0x0000000000009000\n0 10\ntotals: 40\n';
  it('moves a V8 perf map beside the dumps and names their frames', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jit-map-'));
    const pid = 4_000_000_000 + process.pid;
    writeFileSync(`/tmp/perf-${pid}.map`, '1000 40 JS:*fib a.ts:1\n');
    writeFileSync(join(dir, 'a.1.callgrind.out'), dumpText);
    const shares = keepJitMap(pid, dir, join(dir, 'perf-hono.map'), [[join(dir, 'a.1.callgrind.out')], []]);
    expect(shares).toEqual([0.75, undefined]);
    expect(existsSync(`/tmp/perf-${pid}.map`)).toBe(false);
    expect(readFileSync(join(dir, 'perf-hono.map'), 'utf8')).toBe('1000 40 JS:*fib a.ts:1\n');
    expect(readFileSync(join(dir, 'a.1.callgrind.out'), 'utf8')).toContain('fn=(1) JS:*fib a.ts:1 [0x0000000000001010]');
    rmSync(dir, { recursive: true });
  });
  it('converts a JSC jitdump of that pid (jit-<tid>-<pid>.dump) to a perf map and drops the dump', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jit-map-'));
    writeFileSync(join(dir, 'jit-43-42.dump'), jitDump([{ load: [0x9000n, 16, 'JSC-DFG: fib#Ab', 1n] }]));
    writeFileSync(join(dir, 'jit-44-4242.dump'), jitDump([{ load: [0x1000n, 64, 'another process', 1n] }]));
    writeFileSync(join(dir, 'a.1.callgrind.out'), dumpText);
    expect(keepJitMap(42, dir, join(dir, 'perf-hono.map'), [[join(dir, 'a.1.callgrind.out')]])).toEqual([0.25]);
    expect(readFileSync(join(dir, 'perf-hono.map'), 'utf8')).toBe('9000 10 JSC-DFG: fib#Ab\n');
    expect(readdirSync(dir).sort()).toEqual(['a.1.callgrind.out', 'jit-44-4242.dump', 'perf-hono.map']);
    rmSync(dir, { recursive: true });
  });
  it('leaves the dumps alone where the server wrote no map', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jit-map-'));
    writeFileSync(join(dir, 'a.1.callgrind.out'), dumpText);
    expect(keepJitMap(4_100_000_000, dir, join(dir, 'perf-hono.map'), [[join(dir, 'a.1.callgrind.out')]])).toEqual([undefined]);
    expect(readFileSync(join(dir, 'a.1.callgrind.out'), 'utf8')).toBe(dumpText);
    rmSync(dir, { recursive: true });
  });
});

describe('valgrindWarnings', () => {
  it('keeps Valgrind’s own warnings, once each, without the pid prefix', () => {
    const stderr = [
      '==4242== Callgrind, a call-graph generating cache profiler',
      '--4242-- WARNING: unhandled amd64-linux syscall: 441',
      '--4242-- warning: L3 cache found, using its data for the LL simulation.',
      '--4242-- You may be able to write your own handler.',
      '--4242-- WARNING: unhandled amd64-linux syscall: 441',
      'bun server: listening',
    ].join('\n');
    expect(valgrindWarnings(stderr)).toEqual(['WARNING: unhandled amd64-linux syscall: 441']);
  });
});
