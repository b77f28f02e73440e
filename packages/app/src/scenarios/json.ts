/**
 * A large JSON body: JSON.parse of a generated document and JSON.stringify of the result, what a
 * server does with a big request and a big response. Both are synchronous in every runtime and
 * none offers a non-blocking form (`Response.json()` parses on the calling thread too), so this
 * scenario has sync and worker only.
 */
import { crc32 } from 'node:zlib';

export const name = 'json';
export const description = 'JSON.parse and JSON.stringify of a generated document (~0.5 MB by default)';
/** Outside the default plan: `--scenarios catalogue` (pnpm bench:catalogue) or its own name measures it. */
export const group = 'catalogue';

export interface JsonInput {
  /** Size of the document in KiB (it ends at the first record past this size). */
  kb: number;
}

/** Parse and stringify together run at about a hundred MB/s on a current core, so the bound keeps a request near 0.1 s on every runtime. */
export const BOUNDS = { kb: { min: 1, max: 8192, default: 512 } } as const;

export function input(query: URLSearchParams): JsonInput {
  const values = query.getAll('kb');
  const { min, max } = BOUNDS.kb;
  if (values.length === 0) return { kb: BOUNDS.kb.default };
  const raw = values.length === 1 ? values[0]! : '';
  const kb = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(kb >= min && kb <= max)) {
    const got = values.join(',');
    throw new RangeError(`kb must be an integer from ${min} to ${max}, got "${got.length > 40 ? `${got.slice(0, 40)}...` : got}"`);
  }
  return { kb };
}

export async function setup(): Promise<void> {
  documentText(BOUNDS.kb.default);
}

export function sync({ kb }: JsonInput): { kb: number; records: number; chars: number; checksum: number } {
  const doc = JSON.parse(documentText(kb)) as unknown[];
  const out = JSON.stringify(doc);
  return { kb, records: doc.length, chars: out.length, checksum: crc32(out) };
}

/**
 * The document for a size, generated once and kept: the scenario measures parsing, not
 * generating. A few sizes are kept so a size sweep does not regenerate on every request, and no
 * more, so a client walking through every allowed size cannot grow memory without limit.
 */
const KEPT = 4;
const texts = new Map<number, string>();

function documentText(kb: number): string {
  let text = texts.get(kb);
  if (text === undefined) {
    text = generate(kb * 1024);
    if (texts.size >= KEPT) texts.delete(texts.keys().next().value!);
    texts.set(kb, text);
  }
  return text;
}

/** A seeded generator (mulberry32): the same document on every runtime and in every worker. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Some names outside ASCII, so the strings are not all one-byte and escaping is exercised.
const FIRST = ['Ada', 'Zoë', 'Łukasz', 'Mei', 'Olu', 'Søren', 'Ines', 'Kenji', 'Ana "Nan"', 'Émile'];
const LAST = ['Lovelace', 'Okafor', 'Nowak', '山田', 'García', 'Müller', 'Rossi', 'Ng', 'Dubois', 'Kowalczyk'];
const CITIES = ['Łódź', 'Zürich', 'São Paulo', 'Lagos', 'Tōkyō', 'Reykjavík', 'Nairobi', 'Montréal'];
const TAGS = ['new', 'vip', 'returning', 'trial', 'churned', 'beta', 'enterprise', 'edu', 'nonprofit'];

function record(id: number, next: () => number) {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const first = pick(FIRST);
  return {
    id,
    name: `${first} ${pick(LAST)}`,
    email: `user${id}@example.com`,
    active: next() < 0.7,
    score: Math.round(next() * 1e6) / 100,
    tags: Array.from({ length: 1 + Math.floor(next() * 4) }, () => pick(TAGS)),
    address: { street: `${1 + Math.floor(next() * 999)} Main St\tApt ${id % 97}`, city: pick(CITIES), zip: String(10000 + id * 7) },
    orders: Array.from({ length: Math.floor(next() * 5) }, (_, i) => ({
      at: 1_700_000_000 + id * 3600 + i * 60,
      amount: Math.round(next() * 100_000) / 100,
      note: next() < 0.1 ? null : `order ${i} of <${first}> & co.`,
    })),
  };
}

function generate(bytes: number): string {
  const next = random(0x5eed);
  const parts: string[] = [];
  let length = 2;
  for (let id = 1; length < bytes; id++) {
    const part = JSON.stringify(record(id, next));
    parts.push(part);
    length += part.length + 1;
  }
  return `[${parts.join(',')}]`;
}
