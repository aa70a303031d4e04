/** What the Messages API accepts as a tool name. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,128}$/;

/** `getStatus` → `get_status`; `parseHTMLPage` → `parse_html_page`. */
function snakeCase(identifier: string): string {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** The name a tool gets when `@Tool({ name })` does not set one. */
export function deriveToolName(methodName: string, prefix?: string): string {
  const base = snakeCase(methodName);
  return prefix ? `${prefix}_${base}` : base;
}
