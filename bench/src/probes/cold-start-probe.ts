// The first calls of a fresh process, as a serverless function or a new instance pays them on its
// first requests: import the module tools-codegen wrote (the examples' two tools), build the
// container, call the read, then the write (a second tool), then warm calls of each. Prints JSON.
// Usage: node cold-start-probe.js compiled   the manifest as generated: checks compiled at build time
//        node cold-start-probe.js lazy       the same entries without them (an older manifest): Ajv on the first call
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import 'reflect-metadata';
import { ToolContainer, type ToolManifest } from '@toolwright/core';
import { REPO_DIR } from '../lib/paths';

export interface ColdStart {
  importMs: number;
  firstCallMs: number;
  secondToolFirstMs: number;
  warmUs: number;
  secondToolWarmUs: number;
  ajvLoaded: boolean;
}

const WARM_CALLS = 2_000;
const EXAMPLES = join(REPO_DIR, 'packages', 'examples', 'dist');

async function main(): Promise<void> {
  const mode = process.argv[2];
  const { OrdersTools } = require(join(EXAMPLES, 'orders', 'orders.tools')) as { OrdersTools: new (repo: object) => object };
  let started = performance.now();
  // What a process has at hand before its first request: the framework, its tools, then their manifest.
  const { toolManifest } = require(join(EXAMPLES, 'tools.generated')) as { toolManifest: ToolManifest };
  const importMs = performance.now() - started;
  const manifest: ToolManifest = mode === 'lazy' ? { entries: toolManifest.entries.map(({ inputCheck: _compiled, ...entry }) => entry) } : toolManifest;
  if (mode === 'compiled' && !manifest.entries.every((e) => typeof e.inputCheck === 'function')) throw new Error('the examples manifest has no compiled checks; run pnpm codegen');
  // The examples' repository waits a timer per lookup (simulated I/O): this one answers at once, so a warm call is the framework's.
  const repository = { find: async () => ({ status: 'enviado', previsao: null, cliente: 'C-ana' }), cancel: async () => undefined };
  const container = new ToolContainer({ manifest, providers: [new OrdersTools(repository)] });
  const call = async (name: string) => {
    const [result] = await container.execute([{ type: 'tool_use', id: 'toolu_cold', name, input: { numero: 'A-1001' } }]);
    // The write is refused by its guard (no session): validation ran all the same.
    if (name === 'buscar_pedido' && result.is_error) throw new Error(`buscar_pedido failed: ${String(result.content)}`);
  };
  started = performance.now();
  await call('buscar_pedido');
  const firstCallMs = performance.now() - started;
  started = performance.now();
  await call('cancelar_pedido');
  const secondToolFirstMs = performance.now() - started;
  const warm = async (name: string) => {
    for (let i = 0; i < WARM_CALLS; i++) await call(name);
    const from = performance.now();
    for (let i = 0; i < WARM_CALLS; i++) await call(name);
    return ((performance.now() - from) * 1000) / WARM_CALLS;
  };
  const warmUs = await warm('buscar_pedido');
  const secondToolWarmUs = await warm('cancelar_pedido');
  const ajvLoaded = Object.keys(require.cache).some((file) => /[\\/]ajv[\\/]dist[\\/]2020\.js$/.test(file));
  const result: ColdStart = { importMs, firstCallMs, secondToolFirstMs, warmUs, secondToolWarmUs, ajvLoaded };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
