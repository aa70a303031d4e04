// A stdio MCP server serving `buscar_pedido`, for the MCP benchmark: `toolwright`, `plain` (v1 SDK) or `plain-v2`.
import 'reflect-metadata';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { serveStdio as serveStdioV2 } from '@modelcontextprotocol/server/stdio';
import { serveStdio } from '@toolwright/mcp';
import { plainServer, plainV2Server, toolwrightServer } from '../fixtures/mcp-servers';

if (process.argv[2] === 'toolwright') serveStdio(toolwrightServer());
else if (process.argv[2] === 'plain-v2') serveStdioV2(() => plainV2Server());
else void plainServer().connect(new StdioServerTransport());
