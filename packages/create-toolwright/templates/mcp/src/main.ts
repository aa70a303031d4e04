#!/usr/bin/env node
import { createMcpServer, serveStdio } from '@toolwright/mcp';
import { createTools } from './tools.js';

// stdout carries the protocol: log to stderr only.
const server = createMcpServer(createTools(), { name: '{{name}}', version: '0.1.0' });
await serveStdio(server);
console.error('{{name}}: MCP server on stdio. A client launches it: npm run try, or');
console.error('  npx @modelcontextprotocol/inspector node dist/main.js');
