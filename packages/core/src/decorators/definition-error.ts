/** A decorator was used in a way toolwright cannot turn into a tool; thrown at class definition. */
export class ToolDefinitionError extends Error {
  override name = 'ToolDefinitionError';
}

export function describeMember(target: object, propertyKey: string | symbol): string {
  const owner = typeof target === 'function' ? target : target.constructor;
  return `${owner.name}.${String(propertyKey)}`;
}
