import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';

// The built package, as a user's compiler sees it (built by `pnpm build`, which `pnpm test` runs first).
const DIST = path.resolve(__dirname, '../dist/index.d.ts');

const USER_CODE = `
import * as http from 'node:http';
import { createMcpServer, mcpHttpHandler, type McpHttpOptions } from '@toolwright/mcp';
import type { ToolContainer } from '@toolwright/core';

export function serve(tools: ToolContainer<unknown>, options: McpHttpOptions): http.Server {
  const handler = mcpHttpHandler(createMcpServer(tools, { name: 'orders', version: '1.0.0' }), options);
  return http.createServer((req, res) => void handler(req, res));
}
`;

describe('@toolwright/mcp for a plain node:http user', () => {
  it('type-checks with only @types/node: no express type in its public declarations', () => {
    if (!fs.existsSync(DIST)) throw new Error(`${DIST} is missing: run \`pnpm build\` first.`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-plain-http-'));
    const file = path.join(dir, 'server.ts');
    fs.writeFileSync(file, USER_CODE);
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      types: ['node'],
      typeRoots: [path.resolve(__dirname, '../../../node_modules/@types')],
      skipLibCheck: false,
      paths: { '@toolwright/mcp': [DIST], '@toolwright/core': [path.resolve(__dirname, '../../core/dist/index.d.ts')] },
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    fs.rmSync(dir, { recursive: true, force: true });
    expect(problems).toEqual([]);
    const declarations = fs.readdirSync(path.dirname(DIST), { recursive: true }).filter((f) => String(f).endsWith('.d.ts'));
    for (const f of declarations) expect(fs.readFileSync(path.join(path.dirname(DIST), String(f)), 'utf8')).not.toMatch(/from ['"]express['"]|@types\/express/);
    // One full compile of the package's declarations and their dependencies': slow on a loaded machine.
  }, 300_000);
});
