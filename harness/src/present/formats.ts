/**
 * Number, date and size formatters shared by every renderer (Markdown, HTML, console, and the
 * sections of the sweep, processes and versions). Pure, and importing no renderer, so any of
 * them can use these without import circles.
 */

/**
 * Requests/s: whole numbers above 100 (the decimals are noise there), a little more below.
 * `scale` picks the decimals, so a spread can be printed at the precision of its median.
 */
export function formatRps(x: number, scale: number = x): string {
  const decimals = Math.abs(scale) >= 100 ? 0 : Math.abs(scale) >= 10 ? 1 : 2;
  return x.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** Milliseconds with 1-2 significant decimals: 1234, 56.7, 4.21, 0.043. */
export function formatMs(x: number): string {
  const abs = Math.abs(x);
  if (abs === 0) return '0';
  if (abs >= 100) return x.toFixed(0);
  if (abs >= 10) return x.toFixed(1);
  if (abs >= 1) return x.toFixed(2);
  return x.toPrecision(2);
}

/** A ratio as "2.41x"; small ratios keep 2 significant digits so 0.004 does not read as 0. */
export function formatRatio(x: number | null | undefined): string {
  if (x === null || x === undefined) return 'n/a';
  return `${Math.abs(x) >= 0.1 ? x.toFixed(2) : String(Number(x.toPrecision(2)))}x`;
}

/** "2025-01-02 03:04 UTC", or the string as given when it is not a date. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}

/** A pipe would end the table cell early; a newline would end the row. */
export function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
