/**
 * The keys of a large object, listed once per input. V8 lists the keys of a parsed object of
 * many keys (a hash table) by sorting them into insertion order, which costs more per key the
 * larger the object: the limits walk lists them, and the schema check's loop over a Record and
 * the instance builder take the same list instead of listing again. The list lives from the
 * walk to the end of `buildInput`, which runs no code of anyone else's in between; a JSON
 * input has no getter that could change an object after the walk listed it.
 */
let listed: Map<object, string[]> | undefined;

/** Fewer keys than this are listed again: the map would cost about what a second listing does. */
export const LISTED_KEYS_MIN = 128;

/**
 * Keeps `keys`, the `Object.keys` of `object`, when it is large and `for…in` would list exactly
 * them (nothing enumerable inherited), so that `keysOf` stays `for…in` to the letter.
 */
export function rememberKeys(object: object, keys: string[]): void {
  if (keys.length < LISTED_KEYS_MIN || !inheritsNoKeys(object)) return;
  (listed ??= new Map()).set(object, keys);
}

/** Ends the input's lifetime of its lists: the next input's objects are new. */
export function forgetListedKeys(): void {
  listed = undefined;
}

/** The keys `for…in` visits on `object`, in its order: the walk's list when it made one. */
export function keysOf(object: object): readonly string[] {
  const keys = listed?.get(object);
  if (keys !== undefined) return keys;
  const found: string[] = [];
  for (const key in object) found.push(key);
  return found;
}

/** The keys `Object.keys` gives for `object`: the walk's list when it made one. */
export function ownKeysOf(object: object): readonly string[] {
  return listed?.get(object) ?? Object.keys(object);
}

function inheritsNoKeys(object: object): boolean {
  // `for…in` over the prototype visits every enumerable key of the whole chain (none for null).
  for (const _ in Object.getPrototypeOf(object)) return false;
  return true;
}
