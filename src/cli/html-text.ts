/**
 * Server-sent text made safe for an HTML report: the characters that drive a terminal or reorder
 * text (controls, bidi overrides, zero-width characters) shown escaped as in the terminal form,
 * then `& < > " '` as character references, so a value is inert in an element or an attribute.
 */
import { shownText } from './terminal-text.js';

const REFERENCES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text for an HTML element or a quoted attribute value. */
export function htmlText(value: string): string {
  return shownText(value).replace(/[&<>"']/g, (ch) => REFERENCES[ch] as string);
}
