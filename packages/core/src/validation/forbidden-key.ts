/**
 * The one key refused wherever it is: a careless merge or copy of an input holding it rewrites
 * the prototype of the target. `constructor` and `prototype` are ordinary keys of JSON data; the
 * instance stage keeps them on objects that have no prototype to reach. tools-codegen refuses a
 * property by this name, which no input could carry.
 */
export const FORBIDDEN_KEY = '__proto__';
