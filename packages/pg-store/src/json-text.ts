/**
 * `value` as JSON text in ASCII. `JSON.stringify` already escapes NUL and lone surrogates (which
 * `jsonb` and `text` refuse); every other non-ASCII character is escaped too, so the bytes are
 * the same in any server encoding. `JSON.parse` gives the value back exactly, and in psql
 * `column::jsonb` reads it as usual (but for a row holding NUL or a lone surrogate).
 */
export function jsonText(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
