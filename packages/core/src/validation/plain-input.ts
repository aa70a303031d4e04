import { modelMessages } from '../execution/messages';

/** Keys that could reach `Object.prototype` through class-transformer or a careless merge. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_INPUT_DEPTH = 32;

/**
 * Checks that the model's input is a JSON object free of prototype-polluting keys and of absurd
 * nesting. Returns the message for the model, or `undefined` when the input may go on.
 */
export function checkPlainInput(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return modelMessages.notAnObject(input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input);
  }
  const pending: Array<{ value: object; path: string; depth: number }> = [{ value: input, path: '', depth: 1 }];
  while (pending.length > 0) {
    const { value, path, depth } = pending.pop()!;
    if (depth > MAX_INPUT_DEPTH) return modelMessages.tooDeep(MAX_INPUT_DEPTH);
    for (const key of Object.keys(value)) {
      const child = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      if (FORBIDDEN_KEYS.has(key)) return modelMessages.forbiddenKey(child);
      const next = (value as Record<string, unknown>)[key];
      if (typeof next === 'object' && next !== null) pending.push({ value: next, path: child, depth: depth + 1 });
    }
  }
  return undefined;
}
