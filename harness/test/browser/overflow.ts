/** What the browser tests check a page with at 1280 px: no text leaves its box. */

/**
 * Runs in the page: each element whose content is wider than its box while the box neither
 * scrolls nor clips it (text that runs into the next column), described by its tag, class and
 * first words. Inline elements have no box of their own; SVG and canvas draw their own.
 */
export const OVERFLOWING = `[...document.querySelectorAll('body *')].filter((el) => {
  if (!(el instanceof HTMLElement) || el.closest('svg, canvas') !== null) return false;
  const style = getComputedStyle(el);
  if (style.display === 'inline' || style.display === 'none' || el.clientWidth === 0) return false;
  const scrolls = (s) => s.overflowX !== 'visible';
  if (scrolls(style)) return false;
  return el.scrollWidth > el.clientWidth + 1 && !scrolls(getComputedStyle(el.parentElement ?? el));
}).map((el) => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ')[0] : '') + ': ' + (el.textContent ?? '').slice(0, 60))`;
