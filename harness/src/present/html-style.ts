/**
 * The report page's stylesheet. Colours are CSS variables so the chart script reads the same
 * ones (text, grid) and the page follows the reader's light or dark preference.
 */
export const REPORT_CSS = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1b1f24; --fg-muted: #57606a; --grid: #d8dee4; --panel: #f6f8fa;
  --border: #d0d7de; --warn-bg: #fff8c5; --warn-fg: #7d4e00; --warn-border: #d4a72c;
  --bad-bg: #ffebe9; --bad-fg: #a40e26; --bad-border: #ff8182; --link: #0969da;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #e6edf3; --fg-muted: #9198a1; --grid: #30363d; --panel: #161b22;
    --border: #30363d; --warn-bg: #3b2e00; --warn-fg: #f2cc60; --warn-border: #9e6a03;
    --bad-bg: #3d0b10; --bad-fg: #ff9492; --bad-border: #da3633; --link: #4493f8;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 1240px; margin: 0 auto; padding: 24px 20px 48px; }
h1 { font-size: 1.6rem; margin: 0 0 4px; }
h2 { font-size: 1.3rem; margin: 40px 0 4px; padding-bottom: 4px; border-bottom: 1px solid var(--border); }
h3 { font-size: 1rem; margin: 0 0 6px; }
a { color: var(--link); }
.muted, .subtitle { color: var(--fg-muted); }
.subtitle { margin: 0 0 16px; }
.banner { padding: 10px 14px; border-radius: 6px; border: 1px solid var(--border); background: var(--panel); margin: 12px 0; }
.banner.warn { background: var(--warn-bg); color: var(--warn-fg); border-color: var(--warn-border); font-weight: 600; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 12px; margin: 12px 0; }
.card { background: var(--panel); border: 1px solid var(--border); border-radius: 6px; padding: 12px 14px; }
.card ul { margin: 0; padding-left: 18px; }
.card li { margin: 3px 0; }
.card.bad { background: var(--bad-bg); border-color: var(--bad-border); color: var(--bad-fg); }
.nums { font-variant-numeric: tabular-nums; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(360px, 1fr)); gap: 16px; margin: 12px 0; }
figure { margin: 0; background: var(--panel); border: 1px solid var(--border); border-radius: 6px; padding: 10px; }
figcaption { font-size: 0.9rem; font-weight: 600; margin-bottom: 4px; }
figcaption small { font-weight: 400; color: var(--fg-muted); }
.chart-box { position: relative; height: 300px; }
.table-wrap { overflow-x: auto; margin: 8px 0; }
table { border-collapse: collapse; font-size: 0.85rem; }
th, td { padding: 4px 6px; border-bottom: 1px solid var(--border); text-align: left; vertical-align: top; }
th { background: var(--panel); font-weight: 600; white-space: nowrap; }
table.cells { width: 100%; }
table.cells td:last-child { min-width: 3em; }
a.badge { text-decoration: none; }
ol.cell-notes, p.cell-notes { font-size: 0.9rem; margin: 4px 0 16px; }
ol.cell-notes li.bad { color: var(--bad-fg); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.flagged td { background: var(--warn-bg); }
tr.bad td, tr.missing td { background: var(--bad-bg); }
.badge { display: inline-block; padding: 0 6px; margin: 1px 4px 1px 0; border-radius: 10px; font-size: 0.8rem;
  white-space: nowrap; border: 1px solid var(--warn-border); color: var(--warn-fg); background: var(--warn-bg); }
.badge.bad { border-color: var(--bad-border); color: var(--bad-fg); background: var(--bad-bg); white-space: normal; }
.side-by-side { display: grid; grid-template-columns: repeat(auto-fit, minmax(360px, 1fr)); gap: 24px; }
.side-by-side table { width: 100%; }
.legend { font-size: 0.9rem; }
.legend li { margin: 2px 0; }
footer { margin-top: 40px; font-size: 0.85rem; color: var(--fg-muted); }
/* A long name (a regular expression, a path) breaks inside its box rather than leave it. */
td, li, p, figcaption { overflow-wrap: anywhere; }
.cards > *, .charts > *, .side-by-side > * { min-width: 0; }
`;
