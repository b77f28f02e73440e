/**
 * Escaping for the HTML report. Everything that comes from report.json (reasons, versions, the
 * OS string) is text written by other programs and must never become markup or end a script.
 */

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an element body or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ENTITIES[ch] ?? ch);
}

/**
 * JSON for a `<script type="application/json">` body. In JSON a "<" can only sit inside a string,
 * where `\u003c` means the same character, so no `</script` or `<!--` survives to end the element
 * early, and JSON.parse of the element's text gives back exactly the value.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * Source of a library for an inline `<script>`. `</script` would end the element, so it becomes
 * `<\/script`, which reads the same inside JS strings, regular expressions and comments (the
 * only places it can occur). The source-map comment is dropped: the map is not shipped with the
 * page, and devtools would try to load it from next to the HTML file.
 */
export function inlineScript(source: string): string {
  return source.replace(/<\/(script)/gi, '<\\/$1').replace(/^\/\/# sourceMappingURL=.*$/gm, '');
}
