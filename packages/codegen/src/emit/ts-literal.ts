const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property key as TypeScript source: bare when it can be, quoted otherwise. */
export function propertyKey(key: string): string {
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
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const flat = value.map((v) => tsLiteral(v, inner));
    if (value.every(isPrimitive)) {
      const oneLine = `[${flat.join(', ')}]`;
      if (oneLine.length + indent.length <= 100) return oneLine;
    }
    return `[\n${flat.map((v) => `${inner}${v},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  const parts = entries.map(([key, v]) => `${propertyKey(key)}: ${tsLiteral(v, inner)}`);
  if (entries.every(([, v]) => isPrimitive(v))) {
    const oneLine = `{ ${parts.join(', ')} }`;
    if (oneLine.length + indent.length <= 100) return oneLine;
  }
  return `{\n${parts.map((p) => `${inner}${p},`).join('\n')}\n${indent}}`;
}

function isPrimitive(value: unknown): boolean {
  return value === null || typeof value !== 'object';
}
