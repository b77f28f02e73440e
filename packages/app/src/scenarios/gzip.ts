/**
 * Response compression, as a compression middleware does it for a large body: zlib's gzipSync
 * and brotliCompressSync on the calling thread against gzip and brotliCompress, which node:zlib
 * runs on the runtime's thread pool (Deno's has been reported to stay on the main thread:
 * denoland/deno#24267). The settings are the middlewares' defaults: gzip at zlib's default
 * level (hono's compress, @fastify/compress and koa-compress all leave it), brotli at quality 4
 * (@fastify/compress and koa-compress set it because zlib's default, 11, is far slower; hono's
 * compress has no brotli).
 */
import { constants, brotliCompress, brotliCompressSync, crc32, gzip, gzipSync } from 'node:zlib';
import { promisify } from 'node:util';

export const name = 'gzip';
export const description = 'zlib gzipSync/brotliCompressSync against gzip/brotliCompress of a generated ~0.5 MB body';
/** Outside the default plan: `--scenarios catalogue` (pnpm bench:catalogue) or its own name measures it. */
export const group = 'catalogue';

const CODECS = ['gzip', 'brotli'] as const;
type Codec = (typeof CODECS)[number];

export interface GzipInput {
  codec: Codec;
  /** Size of the body in KiB. */
  kb: number;
}

export interface GzipAnswer {
  codec: Codec;
  kb: number;
  /** Compressed length: gzip's depends on the runtime's zlib build (Node's differs from Bun's and Deno's). */
  bytes: number;
  checksum: number;
}

/**
 * gzip and brotli 4 compress tens of MB/s on a current core, so the bound keeps a request near 0.1 s. It also stays below
 * 8 MiB, from where Node's, Bun's and Deno's async brotliCompress feeds the encoder otherwise than
 * brotliCompressSync does and the two give different (equally valid) bytes.
 */
export const BOUNDS = { kb: { min: 1, max: 4096, default: 512 } } as const;

const GZIP_OPTIONS = { level: constants.Z_DEFAULT_COMPRESSION };
const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };

export function input(query: URLSearchParams): GzipInput {
  const codecs = query.getAll('codec');
  let codec: Codec = 'gzip';
  if (codecs.length > 0) {
    const found = CODECS.find((c) => codecs.length === 1 && c === codecs[0]);
    if (found === undefined) throw new RangeError(`codec must be one of ${CODECS.join(', ')}, got "${clip(codecs.join(','))}"`);
    codec = found;
  }
  const values = query.getAll('kb');
  const { min, max } = BOUNDS.kb;
  if (values.length === 0) return { codec, kb: BOUNDS.kb.default };
  const raw = values.length === 1 ? values[0]! : '';
  const kb = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(kb >= min && kb <= max)) throw new RangeError(`kb must be an integer from ${min} to ${max}, got "${clip(values.join(','))}"`);
  return { codec, kb };
}

export async function setup(): Promise<void> {
  body(BOUNDS.kb.default);
}

export function sync({ codec, kb }: GzipInput): GzipAnswer {
  const out = codec === 'gzip' ? gzipSync(body(kb), GZIP_OPTIONS) : brotliCompressSync(body(kb), BROTLI_OPTIONS);
  return { codec, kb, bytes: out.byteLength, checksum: crc32(out) };
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export async function async({ codec, kb }: GzipInput): Promise<GzipAnswer> {
  const out = codec === 'gzip' ? await gzipAsync(body(kb), GZIP_OPTIONS) : await brotliAsync(body(kb), BROTLI_OPTIONS);
  return { codec, kb, bytes: out.byteLength, checksum: crc32(out) };
}

/**
 * The body is a prefix of one generated stream, kept at the largest size asked for so far (at
 * most the bound): every size is then a view, and nothing is generated per request after the
 * first at a size.
 */
let stream: Uint8Array = new Uint8Array(0);

function body(kb: number): Uint8Array {
  const bytes = kb * 1024;
  if (stream.byteLength < bytes) stream = generate(bytes);
  return stream.subarray(0, bytes);
}

/**
 * HTML table rows with a seeded mix of words and numbers: repetitive markup and varied text, so
 * it compresses about as a real page or JSON listing does (~5-8x), not as a run of one byte.
 */
function generate(bytes: number): Uint8Array {
  let s = 0x5eed;
  const next = (): number => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s >>> 8;
  };
  const words = ['alpha', 'order', 'shipped', 'pending', 'invoice', 'customer', 'Zürich', 'total', 'refund', 'widget', 'blue', 'large'];
  const rows: string[] = [];
  let length = 0;
  for (let id = 0; length < bytes; id++) {
    const text = Array.from({ length: 3 + (next() % 6) }, () => words[next() % words.length]).join(' ');
    const row = `<tr data-id="${id}"><td class="sku">SKU-${next() % 100000}</td><td>${text}</td><td class="num">${(next() % 1000000) / 100}</td></tr>\n`;
    rows.push(row);
    length += row.length;
  }
  return new TextEncoder().encode(rows.join('')).subarray(0, bytes);
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}...` : s;
}
