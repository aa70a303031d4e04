// A stdio MCP server serving `buscar_pedido`, for the MCP benchmark: `toolwright` or `plain`.
import 'reflect-metadata';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { serveStdio } from '@toolwright/mcp';
import { plainServer, toolwrightServer } from '../fixtures/mcp-servers';

if (process.argv[2] === 'toolwright') serveStdio(toolwrightServer());
else void plainServer().connect(new StdioServerTransport());
