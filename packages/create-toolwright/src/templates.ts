/** What `--template` chooses: the layers of files it writes (later layers win) and what it is for. */
export interface Template {
  layers: readonly string[];
  summary: string;
  /** The commands to print once the project is written, after `cd <dir>`. */
  next: readonly string[];
}

export const TEMPLATES = {
  node: {
    layers: ['base', 'node'],
    summary: 'plain Node: a tools class, the conversation loop, a vitest test',
    next: ['npm install', 'npm test', 'npm start'],
  },
  nest: {
    layers: ['nest'],
    summary: 'a NestJS 12 app: ToolsModule, POST /chat (JSON or SSE), approval routes, a Postgres run store',
    next: ['npm install', 'npm test', 'npm start'],
  },
  mcp: {
    layers: ['base', 'mcp'],
    summary: 'the tools as an MCP server over stdio, with a client that calls it',
    next: ['npm install', 'npm test', 'npm start', 'npm run try'],
  },
} as const satisfies Record<string, Template>;

export type TemplateName = keyof typeof TEMPLATES;

export const TEMPLATE_NAMES = Object.keys(TEMPLATES) as TemplateName[];

export function isTemplateName(value: string): value is TemplateName {
  return Object.hasOwn(TEMPLATES, value);
}
