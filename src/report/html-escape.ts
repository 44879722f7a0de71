// Text made safe for the HTML report: every string a server could have influenced reaches the page through here.
import { visible, visibleLine } from './visible.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text safe inside an element or a quoted attribute: markup is escaped, and control and bidi characters are shown as
 * \u escapes so nothing on the page is hidden or reordered.
 */
export function escapeHtml(text: string): string {
  return visible(text).replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}

/** Like escapeHtml, for text that must stay on one line. */
export function escapeLine(text: string): string {
  return visibleLine(text).replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}
