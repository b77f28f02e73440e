/**
 * Server-side rendering of a large HTML page with Hono's own `html` template helper (the app's
 * framework, so no new one): a product listing of `rows` rows, every interpolated value
 * escaped. Rendering is string building on the calling thread in every runtime; a streaming
 * renderer would still build the strings there, so this scenario has sync and worker only.
 */
import { html } from 'hono/html';
import { Buffer } from 'node:buffer';
import { crc32 } from 'node:zlib';

export const name = 'render';
export const description = "server-side rendering of a large HTML page with hono/html's html template";
/** Outside the default plan: `--scenarios catalogue` (pnpm bench:catalogue) or its own name measures it. */
export const group = 'catalogue';

export interface RenderInput {
  /** Products listed on the page. */
  rows: number;
}

/** Each row is ~0.5 KB of HTML; the bound keeps the page near 10 MB and well under 1 s. */
export const BOUNDS = { rows: { min: 1, max: 20_000, default: 1000 } } as const;

export function input(query: URLSearchParams): RenderInput {
  const values = query.getAll('rows');
  const { min, max } = BOUNDS.rows;
  if (values.length === 0) return { rows: BOUNDS.rows.default };
  const raw = values.length === 1 ? values[0]! : '';
  const rows = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(rows >= min && rows <= max)) {
    const got = values.join(',');
    throw new RangeError(`rows must be an integer from ${min} to ${max}, got "${got.length > 40 ? `${got.slice(0, 40)}...` : got}"`);
  }
  return { rows };
}

export function sync({ rows }: RenderInput): { rows: number; bytes: number; checksum: number } {
  const page = renderPage(rows);
  return { rows, bytes: Buffer.byteLength(page), checksum: crc32(page) };
}

interface Product {
  id: number;
  name: string;
  blurb: string;
  priceCents: number;
  stock: number;
  tags: string[];
}

// Names with characters the template must escape, and some outside ASCII.
const NOUNS = ['Kettle', 'Lamp', 'Chair', 'Desk', 'Mug', 'Rug', 'Clock', 'Shelf', 'Vase', 'Stool'];
const ADJECTIVES = ['Blue', 'Tall', 'Café', 'Oak & Iron', 'Nordic', '"Classic"', 'Tiny', 'Grand', '<Limited>', 'Smørrebrød'];
const TAGS = ['sale', 'new', 'eco', 'bestseller', 'gift', 'outlet'];

/** Products derived from their index alone, so every runtime and worker renders the same page. */
function product(id: number): Product {
  const h = Math.imul(id + 1, 2654435761) >>> 0;
  const adjective = ADJECTIVES[h % ADJECTIVES.length]!;
  const noun = NOUNS[(h >>> 8) % NOUNS.length]!;
  return {
    id,
    name: `${adjective} ${noun}`,
    blurb: `The ${adjective.toLowerCase()} ${noun.toLowerCase()} you did not know you needed, model ${h % 9973}.`,
    priceCents: 199 + (h % 50_000),
    stock: (h >>> 4) % 40,
    tags: TAGS.filter((_, i) => ((h >>> (12 + i)) & 1) === 1),
  };
}

function row(p: Product) {
  return html`<tr id="p${p.id}" class="${p.stock === 0 ? 'sold-out' : 'in-stock'}">
  <td class="name"><a href="/products/${p.id}?ref=list&amp;v=2">${p.name}</a></td>
  <td class="blurb">${p.blurb}</td>
  <td class="price" data-cents="${p.priceCents}">${(p.priceCents / 100).toFixed(2)} €</td>
  <td class="stock">${p.stock === 0 ? html`<em>sold out</em>` : p.stock}</td>
  <td class="tags">${p.tags.map((t) => html`<span class="tag tag-${t}">${t}</span>`)}</td>
</tr>
`;
}

export function renderPage(rows: number): string {
  const products = Array.from({ length: rows }, (_, i) => product(i));
  const page = html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Catalogue: ${rows} products</title>
<style>table{border-collapse:collapse}td{padding:2px 6px}.sold-out{opacity:.5}</style></head>
<body>
<header><nav><a href="/">Home</a> | <a href="/products">Products</a> | <a href="/cart">Cart (0)</a></nav></header>
<main><h1>All products</h1>
<table><thead><tr><th>Name</th><th>About</th><th>Price</th><th>Stock</th><th>Tags</th></tr></thead>
<tbody>
${products.map(row)}</tbody></table></main>
<footer>${rows} products &copy; Example Shop</footer>
</body></html>`;
  // html`` returns a promise only when a value is one; none here is, so this is a string.
  if (page instanceof Promise) throw new Error('render: the page did not render synchronously');
  return page.toString();
}
