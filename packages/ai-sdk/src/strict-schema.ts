/**
 * Whether OpenAI's strict mode accepts `schema` as it is: every object lists each of its
 * properties in `required` and sets `additionalProperties: false`, at every depth. Anthropic's
 * strict mode also takes optional properties; a schema that satisfies this rule suits both.
 */
export function isOpenAiStrictSchema(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.every(isOpenAiStrictSchema);
  if (typeof schema !== 'object' || schema === null) return true;
  const node = schema as Record<string, unknown>;
  const properties = node.properties as Record<string, unknown> | undefined;
  if (node.type === 'object' || properties !== undefined) {
    const keys = Object.keys(properties ?? {});
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    if (node.additionalProperties !== false || keys.some((key) => !required.has(key))) return false;
  }
  return Object.entries(node).every(([key, value]) => key === 'enum' || key === 'const' || key === 'examples' || isOpenAiStrictSchema(value));
}
