/**
 * A synchronous SQLite driver on a server: node:sqlite's DatabaseSync (it loads in Node 24,
 * Deno 2.9 and Bun 1.4 alike) on a generated table. Two queries at the two ends of the
 * question: an indexed point lookup costs microseconds, less than a hop to a worker and back;
 * an aggregate over 10^5 rows and more costs milliseconds of the loop. node:sqlite has no
 * non-blocking API, so this scenario has sync and worker only.
 *
 * The database is in memory, built by setup() in each process and each worker (one connection
 * each): nothing is written to disk, no file is shared between threads, and no path needs a
 * permission. Built from a recursive CTE with integer arithmetic only, it is the same table on
 * every runtime's SQLite build.
 */
export const name = 'sqlite';
export const description = 'node:sqlite DatabaseSync: an indexed point lookup and an aggregate over 10^5 rows (up to 5x10^5)';
/** Outside the default plan: `--scenarios catalogue` (pnpm bench:catalogue) or its own name measures it. */
export const group = 'catalogue';

const QUERIES = ['aggregate', 'point'] as const;
type Query = (typeof QUERIES)[number];

export type SqliteInput = { query: 'point'; key: number } | { query: 'aggregate'; rows: number };

/** Rows in the table: the aggregate's bound, and what setup() builds (in ~0.3-0.5 s here). */
export const ROWS = 500_000;

export const BOUNDS = {
  key: { min: 1, max: ROWS, default: 4242 },
  rows: { min: 1, max: ROWS, default: 100_000 },
} as const;

/** The members of node:sqlite used here (this repository's @types/node predates the module). */
interface Statement {
  get(...params: unknown[]): Record<string, unknown> | undefined;
}
interface Database {
  exec(sql: string): void;
  prepare(sql: string): Statement;
}

let statements: { point: Statement; aggregate: Statement } | undefined;

export async function setup(): Promise<void> {
  // A specifier the type checker does not follow: see Database above.
  const specifier = 'node:sqlite';
  const { DatabaseSync } = (await import(specifier)) as { DatabaseSync: new (path: string) => Database };
  const db = new DatabaseSync(':memory:');
  db.exec(`
    CREATE TABLE orders (id INTEGER PRIMARY KEY, code INTEGER NOT NULL, customer INTEGER NOT NULL,
                         category INTEGER NOT NULL, amount INTEGER NOT NULL);
    WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ${ROWS})
    INSERT INTO orders SELECT i, (i * ${CODE_FACTOR}) % ${CODE_PRIME}, (i * 2654435761) % 50000, (i * 31) % 16, (i * 48271) % 100000 FROM seq;
    CREATE UNIQUE INDEX orders_code ON orders (code);`);
  statements = {
    point: db.prepare('SELECT id, code, customer, category, amount FROM orders WHERE code = ?'),
    // No GROUP BY: its sort would cost five times the scan, and the scan is the question.
    aggregate: db.prepare(
      'SELECT count(*) AS orders, sum(amount) AS total, min(amount) AS low, max(amount) AS top FROM orders WHERE id <= ?',
    ),
  };
}

/**
 * Row i's code: i times a number coprime to a prime above ROWS, modulo that prime, is a
 * permutation, so codes are unique and scattered across the index rather than in id order.
 */
const CODE_PRIME = 1_000_003;
const CODE_FACTOR = 7919;

function codeOf(id: number): number {
  return (id * CODE_FACTOR) % CODE_PRIME;
}

export function input(query: URLSearchParams): SqliteInput {
  const kinds = query.getAll('query');
  let kind: Query = 'aggregate';
  if (kinds.length > 0) {
    const found = QUERIES.find((q) => kinds.length === 1 && q === kinds[0]);
    if (found === undefined) throw new RangeError(`query must be one of ${QUERIES.join(', ')}, got "${clip(kinds.join(','))}"`);
    kind = found;
  }
  return kind === 'point' ? { query: kind, key: int(query, 'key', BOUNDS.key) } : { query: kind, rows: int(query, 'rows', BOUNDS.rows) };
}

export function sync(job: SqliteInput): Record<string, unknown> {
  if (statements === undefined) throw new Error('sqlite: setup() has not run');
  if (job.query === 'point') {
    return { query: job.query, key: job.key, row: statements.point.get(codeOf(job.key)) ?? null };
  }
  return { query: job.query, rows: job.rows, ...statements.aggregate.get(job.rows) };
}

function int(query: URLSearchParams, param: string, bounds: { min: number; max: number; default: number }): number {
  const values = query.getAll(param);
  if (values.length === 0) return bounds.default;
  const raw = values.length === 1 ? values[0]! : '';
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= bounds.min && value <= bounds.max)) {
    throw new RangeError(`${param} must be an integer from ${bounds.min} to ${bounds.max}, got "${clip(values.join(','))}"`);
  }
  return value;
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}...` : s;
}
