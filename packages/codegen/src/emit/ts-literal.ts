const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A property key as TypeScript source: bare when it can be, quoted otherwise. In an object
 * literal `__proto__`, bare or quoted, would set the prototype; a computed key makes it a
 * property, and means the same in a class body, where `__proto__` is nothing special.
 */
export function propertyKey(key: string): string {
  if (key === '__proto__') return `[${quote(key)}]`;
  return IDENTIFIER.test(key) ? key : quote(key);
}

/** Text that `quote` would copy unchanged: no quotes, backslashes, control characters or surrogates. */
const PLAIN_TEXT = /^[^'"\\\u0000-\u001f\ud800-\udfff]*$/;

export function quote(text: string): string {
  if (PLAIN_TEXT.test(text)) return `'${text}'`;
  return `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

/**
 * A JSON value as TypeScript source, indented two spaces per level, with short arrays and objects
 * of primitives kept on one line. Keys come out in the order they are in the value.
 */
export function tsLiteral(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object') return typeof value === 'string' ? quote(value) : JSON.stringify(value);
  const inner = `${indent}  `;
  const array = Array.isArray(value);
  const keys = array ? undefined : Object.keys(value);
  const count = keys ? keys.length : (value as unknown[]).length;
  if (count === 0) return array ? '[]' : '{}';
  // One pass writes every member and learns whether all are primitives and how wide one line is.
  const parts: string[] = new Array(count);
  let flat = true;
  let width = 0;
  for (let i = 0; i < count; i++) {
    const member = keys ? (value as Record<string, unknown>)[keys[i]] : (value as unknown[])[i];
    if (member !== null && typeof member === 'object') flat = false;
    // `undefined` (or a function) has no JSON text; written as `undefined`, as a key's value always was.
    const text = tsLiteral(member, inner) ?? 'undefined';
    parts[i] = keys ? `${propertyKey(keys[i])}: ${text}` : text;
    width += parts[i].length;
  }
  // `[a, b]` and `{ a, b }`: the brackets, the spaces inside braces and a comma and space between members.
  const oneLineWidth = width + 2 * (count - 1) + (array ? 2 : 4);
  if (flat && oneLineWidth + indent.length <= 100) return array ? `[${parts.join(', ')}]` : `{ ${parts.join(', ')} }`;
  const [open, close] = array ? ['[', ']'] : ['{', '}'];
  return `${open}\n${inner}${parts.join(`,\n${inner}`)},\n${indent}${close}`;
}
