// Names for the JIT code in a callgrind dump. Callgrind names code it has no symbols for by its
// address ("0x00000000180bd7c0"); the runtimes can say what they compiled where: V8 (Node, and
// Deno through --v8-flags) as a perf map, /tmp/perf-<pid>.map, one "start size name" line per
// code object; JavaScriptCore (Bun) as a jitdump file (perf's binary format, records of code
// loaded and moved). The dumps are rewritten with those names, so `callgrind_annotate` and
// KCachegrind read JavaScript functions by name.

export interface JitSymbol {
  start: number;
  size: number;
  name: string;
}

/** A perf map: `<start hex> <size hex> <name>` a line, in the order the code was compiled. */
export function parsePerfMap(text: string): JitSymbol[] {
  const symbols: JitSymbol[] = [];
  for (const line of text.split('\n')) {
    const match = /^(?:0x)?([0-9a-f]+) (?:0x)?([0-9a-f]+) (.+)$/i.exec(line.trim());
    if (match === null) continue;
    symbols.push({ start: Number.parseInt(match[1] ?? '', 16), size: Number.parseInt(match[2] ?? '', 16), name: match[3] ?? '' });
  }
  return symbols;
}

/** jitdump's magic, "JiTD" as a little-endian word. */
const JITDUMP_MAGIC = 0x4a695444;
const CODE_LOAD = 0;
const CODE_MOVE = 1;

export const isJitDump = (bytes: Uint8Array): boolean =>
  bytes.length >= 4 && new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true) === JITDUMP_MAGIC;

/**
 * The code a jitdump file says was loaded (and where it moved), in the order written. A file cut
 * short (the process stopped between two writes) gives the records before the cut.
 */
export function parseJitDump(bytes: Uint8Array): JitSymbol[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!isJitDump(bytes)) throw new Error('not a jitdump file');
  const symbols: JitSymbol[] = [];
  const byIndex = new Map<bigint, JitSymbol>();
  const text = new TextDecoder();
  // Header: magic, version, its own size (u32 each), then machine, pad, pid, timestamp, flags.
  let at = view.getUint32(8, true);
  while (at + 16 <= bytes.length) {
    const id = view.getUint32(at, true);
    const size = view.getUint32(at + 4, true);
    if (size < 16 || at + size > bytes.length) break;
    // Record header (id, size, timestamp), then pid, tid: the body starts at +24.
    if (id === CODE_LOAD && size >= 56) {
      const codeAddr = view.getBigUint64(at + 32, true);
      const codeSize = view.getBigUint64(at + 40, true);
      const index = view.getBigUint64(at + 48, true);
      const nameEnd = bytes.indexOf(0, at + 56);
      const name = text.decode(bytes.subarray(at + 56, nameEnd < 0 || nameEnd > at + size ? at + size : nameEnd));
      const symbol = { start: Number(codeAddr), size: Number(codeSize), name };
      symbols.push(symbol);
      byIndex.set(index, symbol);
    } else if (id === CODE_MOVE && size >= 64) {
      // vma, old address, new address, size, index.
      const moved = byIndex.get(view.getBigUint64(at + 56, true));
      if (moved !== undefined) symbols.push({ ...moved, start: Number(view.getBigUint64(at + 40, true)) });
    }
    at += size;
  }
  return symbols;
}

/**
 * Looks an address up: the symbol written last among those that hold it. Code is compiled into
 * memory freed code once held, and a map only grows, so the latest symbol is the likeliest owner
 * at the end of a run; an address named so is a lead, not a proof.
 */
export function jitLookup(symbols: readonly JitSymbol[]): (address: number) => string | undefined {
  const order = symbols.map((s, i) => ({ ...s, i })).sort((a, b) => a.start - b.start);
  const starts = order.map((s) => s.start);
  // The longest code object bounds how far before an address a holder can start.
  const longest = order.reduce((m, s) => Math.max(m, s.size), 0);
  return (address) => {
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((starts[mid] ?? 0) <= address) lo = mid + 1;
      else hi = mid;
    }
    let best: (JitSymbol & { i: number }) | undefined;
    for (let k = lo - 1; k >= 0; k--) {
      const s = order[k];
      if (s === undefined || s.start + longest <= address) break;
      if (address < s.start + s.size && (best === undefined || s.i > best.i)) best = s;
    }
    return best?.name;
  };
}

export interface NamedDump {
  text: string;
  /**
   * Instructions (Ir, self) counted in JIT code (functions known only by address, in memory no
   * file is mapped to: object `???`), and of those, named here. A stripped binary's own code (Deno
   * ships without a symbol table) shows as addresses too, but inside its file: not counted.
   */
  jitInstructions: number;
  namedInstructions: number;
}

const ADDRESS_NAME = /^(c?fn)=\((\d+)\) 0x([0-9a-f]+)('\d+)?$/;

/**
 * The dump with each address-only function name replaced by `<name> [0x<address>]` where the
 * lookup knows it (the address kept: two compilations of one function stay apart). Callgrind
 * writes a name once per id (`fn=(12) name`, later `fn=(12)`), so renaming that first line
 * renames every use.
 */
export function nameJitFrames(dump: string, lookup: (address: number) => string | undefined): NamedDump {
  const lines = dump.split('\n');
  const positions = (/^positions:\s*(.+)$/m.exec(dump)?.[1] ?? 'line').trim().split(/\s+/).length;
  const addressOf = new Map<string, number>();
  const named = new Set<string>();
  const selfIr = new Map<string, number>();
  const objects = new Map<string, string>();
  const inJitMemory = new Set<string>();
  let object = '';
  let current = '';
  let afterCalls = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    // Objects share one set of ids, named wherever first used: on an `ob=` or a `cob=` line.
    const ob = /^(c?ob)=\((\d+)\)(?: (.*))?$/.exec(line);
    if (ob !== null) {
      if (ob[3] !== undefined) objects.set(ob[2] ?? '', ob[3]);
      if (ob[1] === 'ob') object = objects.get(ob[2] ?? '') ?? '';
      continue;
    }
    const fn = /^(c?fn)=\((\d+)\)/.exec(line);
    if (fn !== null) {
      const id = fn[2] ?? '';
      const match = ADDRESS_NAME.exec(line);
      if (match !== null) {
        const address = Number.parseInt(match[3] ?? '', 16);
        addressOf.set(id, address);
        const name = lookup(address);
        if (name !== undefined) {
          named.add(id);
          lines[i] = `${match[1]}=(${id}) ${name} [0x${match[3]}]${match[4] ?? ''}`;
        }
      }
      if (fn[1] === 'fn') {
        current = id;
        if (object === '???') inJitMemory.add(id);
      }
      continue;
    }
    if (line.startsWith('calls=')) {
      afterCalls = true;
      continue;
    }
    if (/^[+\-*0-9]/.test(line)) {
      // The cost line after `calls=` is the call's inclusive cost, not the function's own.
      if (afterCalls) afterCalls = false;
      else if (addressOf.has(current) && inJitMemory.has(current))
        selfIr.set(current, (selfIr.get(current) ?? 0) + Number(line.split(/\s+/)[positions] ?? 0));
    }
  }
  let jitInstructions = 0;
  let namedInstructions = 0;
  for (const [id, ir] of selfIr) {
    jitInstructions += ir;
    if (named.has(id)) namedInstructions += ir;
  }
  return { text: lines.join('\n'), jitInstructions, namedInstructions };
}
