/**
 * The identity the guards found, as the text an MCP session is bound to: two identities never
 * share it. Canonical JSON (keys sorted, so two requests of one user agree) of strings, numbers,
 * booleans, null and plain objects and arrays of them; a bigint (a Prisma `BigInt` id) is written
 * `123n`, which no string or number is. An identity JSON cannot show whole, a class instance
 * (private `#fields`, getters) or a Map, would make different users look alike and share sessions,
 * so it is refused with what to do instead.
 */
export function identityText(identity: unknown, at = 'request.user'): string {
  if (identity === undefined || identity === null) return 'null';
  switch (typeof identity) {
    case 'string':
    case 'number':
    case 'boolean':
      return JSON.stringify(identity);
    case 'bigint':
      return `${identity}n`;
    case 'object':
      break;
    default:
      throw unreadable(at, `a ${typeof identity}`);
  }
  if (Array.isArray(identity)) return `[${identity.map((item, i) => identityText(item, `${at}[${i}]`)).join(',')}]`;
  const prototype = Object.getPrototypeOf(identity) as unknown;
  if (prototype !== Object.prototype && prototype !== null) throw unreadable(at, `an instance of ${(identity as object).constructor?.name ?? 'a class'}`);
  const record = identity as Record<string, unknown>;
  const entries = Object.keys(record)
    .filter((key) => record[key] !== undefined && typeof record[key] !== 'function')
    .sort()
    .map((key) => `${JSON.stringify(key)}:${identityText(record[key], `${at}.${key}`)}`);
  return `{${entries.join(',')}}`;
}

function unreadable(at: string, what: string): Error {
  return new Error(
    `toolwright mcp: ${at} is ${what}, which cannot tell one user from another as text, so no MCP session can be bound to it. ` +
      "Give ToolsModule.forRoot({ mcp: { principal: (request) => String(request.user.id) } }) (any text unique per user), or make auth() return plain data.",
  );
}
