// Tool definitions and prompt caching: for the example app and a synthetic 200-tool app, the
// bytes of tool definitions per request (on the wire, and in the model's context) with and
// without defer_loading, and the share of each request's prompt that lies before a cache
// breakpoint, over a five-turn runToolLoop against the scripted server. Sizes, not timings.
import 'reflect-metadata';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import type { ContentBlock, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import { IsString } from 'class-validator';
import { Input, Tool, ToolContainer, defineToolManifest, runToolLoop, type ToolManifest, type ToolManifestEntry } from '@toolwright/core';
import { PromptCacheModel, startScriptedServer, text, toolSearch, toolSearchResult, toolUse, turn, type RecordedRequest } from '@toolwright/core/testing';
import { REPO_DIR } from './lib/paths';
import { fixed, isCi, markdownTable, progress, ratio, writeSection } from './lib/report';

const MODEL = 'claude-haiku-5-5';
const SYNTHETIC_TOOLS = isCi ? 20 : 200;
/** Synthetic tools loaded up front when deferring, as the tool search docs advise for the most used ones. */
const UP_FRONT = 3;

interface App {
  name: string;
  manifest: ToolManifest;
  providers: object[];
  /** Tools the five-turn conversation calls, in order; the deferred run finds them by searching. */
  called: string[];
  /** A valid input per called tool. */
  input(tool: string): Record<string, unknown>;
  /** Tools left without defer_loading in the deferred run. */
  upFront: number;
}

function exampleApp(): App {
  const generated = require(join(REPO_DIR, 'packages/examples/dist/tools.generated.js')) as { toolManifest: ToolManifest };
  const { OrdersTools } = require(join(REPO_DIR, 'packages/examples/dist/orders/orders.tools.js'));
  const { OrdersRepository } = require(join(REPO_DIR, 'packages/examples/dist/orders/orders.repository.js'));
  const names = generated.toolManifest.entries.map((e) => e.definition.name);
  const reads = generated.toolManifest.entries.filter((e) => e.effect === 'read').map((e) => e.definition.name);
  return {
    name: `example app (${names.length} tools)`,
    manifest: generated.toolManifest,
    providers: [new OrdersTools(new OrdersRepository())],
    called: [reads[0], reads[0], reads[0], reads[0]],
    input: () => ({ numero: 'A-1001' }),
    // Two tools: both deferred, so the search finds the one called.
    upFront: 0,
  };
}

/** `count` read tools with a realistic description and three documented string parameters each. */
function syntheticApp(count: number): App {
  class SyntheticInput {}
  for (const property of ['conta', 'periodo', 'filtro']) IsString()(SyntheticInput.prototype, property);
  class SyntheticTools {}
  const entries: ToolManifestEntry[] = [];
  for (let i = 0; i < count; i++) {
    const name = `relatorio_${String(i).padStart(3, '0')}`;
    const method = `relatorio${i}`;
    Object.defineProperty(SyntheticTools.prototype, method, { value: async (_input: object) => ({ linhas: i }), writable: true, configurable: true });
    Input()(SyntheticTools.prototype, method, 0);
    Tool({ name, effect: 'read' })(SyntheticTools.prototype, method, Object.getOwnPropertyDescriptor(SyntheticTools.prototype, method)!);
    entries.push({
      provider: SyntheticTools,
      method,
      definition: {
        name,
        description: `Gera o relatório ${i} de uma conta para um período: totais por categoria ${i % 17}, região ${i % 9} e canal ${i % 5}. Use quando o usuário pedir esse relatório. Não altera nenhum dado.`,
        input_schema: {
          type: 'object',
          properties: {
            conta: { type: 'string', description: 'Identificador da conta, como c-1.' },
            periodo: { type: 'string', description: 'Mês no formato 2026-10.' },
            filtro: { type: 'string', description: 'Categoria a incluir; vazio para todas.' },
          },
          required: ['conta', 'periodo', 'filtro'],
          additionalProperties: false,
        },
      },
      effect: 'read',
      inputClass: SyntheticInput,
      parameters: [{ kind: 'input' }],
    });
  }
  const called = [count - 1, count - 2, count - 3, count - 1].map((i) => entries[i].definition.name);
  return {
    name: `synthetic app (${count} tools)`,
    manifest: defineToolManifest(entries),
    providers: [new SyntheticTools()],
    called,
    input: () => ({ conta: 'c-1', periodo: '2026-10', filtro: '' }),
    upFront: UP_FRONT,
  };
}

/** The app with every tool but the first few deferred, for the tool search tool to find. */
function deferred(app: App): ToolManifest {
  return defineToolManifest(app.manifest.entries.map((e, i) => (i < app.upFront ? e : { ...e, definition: { ...e.definition, defer_loading: true } })));
}

/** Five turns: four calls (the deferred run searches first), then the answer. */
function conversation(app: App, searching: boolean) {
  const turns = app.called.map((tool, i) => {
    const blocks: ContentBlock[] = [];
    if (searching && i === 0) {
      blocks.push(toolSearch('srvtoolu_s1', 'regex', 'relat|pedido'), toolSearchResult('srvtoolu_s1', [...new Set(app.called)]));
    }
    blocks.push(text(`Passo ${i + 1}.`), toolUse(`toolu_${i + 1}`, tool, app.input(tool)));
    return turn('tool_use', ...blocks);
  });
  return [...turns, turn('end_turn', text('Pronto.'))];
}

interface Measured {
  requests: RecordedRequest[];
  /** Per response: input tokens not from the cache, read from it, written to it. */
  usage: Array<{ input: number; read: number; written: number }>;
}

async function run(app: App, manifest: ToolManifest, searching: boolean, promptCaching: boolean): Promise<Measured> {
  const server = await startScriptedServer({ turns: conversation(app, searching), promptCache: true });
  try {
    const client = new Anthropic({ baseURL: server.url, apiKey: 'bench', maxRetries: 0 });
    const tools = new ToolContainer({ manifest, providers: app.providers, ...(searching && { toolSearch: 'regex' as const }) });
    const usage: Measured['usage'] = [];
    const result = await runToolLoop({
      client,
      model: MODEL,
      prompt: 'Preciso dos relatórios.',
      tools,
      promptCaching,
      onEvent: (event) => {
        if (event.type !== 'response') return;
        const { input_tokens, cache_read_input_tokens, cache_creation_input_tokens } = event.usage;
        usage.push({ input: input_tokens, read: cache_read_input_tokens ?? 0, written: cache_creation_input_tokens ?? 0 });
      },
    });
    if (result.stopReason !== 'end_turn') throw new Error(`${app.name}: the run ended with ${result.stopReason}`);
    return { requests: [...server.requests], usage };
  } finally {
    await server.close();
  }
}

/** Definition bytes on the wire, and in the model's context (deferred ones only once a tool_reference loads them). */
function definitionBytes(request: RecordedRequest): { wire: number; context: number } {
  const tools = (request.body.tools ?? []) as ToolUnion[];
  const loaded = new Set([...JSON.stringify(request.body.messages).matchAll(/"tool_name":"([^"]+)"/g)].map((m) => m[1]));
  const bytes = (t: ToolUnion) => Buffer.byteLength(JSON.stringify(t));
  const wire = tools.reduce((sum, t) => sum + bytes(t), 0);
  const context = tools.filter((t) => !(t as { defer_loading?: boolean }).defer_loading || loaded.has((t as { name: string }).name)).reduce((sum, t) => sum + bytes(t), 0);
  return { wire, context };
}

const percent = (part: number, whole: number) => `${fixed((100 * part) / Math.max(1, whole), 0)} %`;

async function main(): Promise<void> {
  const apps = [exampleApp(), syntheticApp(SYNTHETIC_TOOLS)];
  const sizeRows: string[][] = [];
  const cacheRows: string[][] = [];
  for (const app of apps) {
    progress(app.name);
    const plain = await run(app, app.manifest, false, true);
    const searched = await run(app, deferred(app), true, true);
    const uncached = await run(app, app.manifest, false, false);
    const base = plain.requests.map(definitionBytes);
    const lean = searched.requests.map(definitionBytes);
    for (let i = 0; i < base.length; i++) {
      sizeRows.push([app.name, String(i + 1), String(base[i].context), String(lean[i].wire), String(lean[i].context), ratio(lean[i].context, base[i].context)]);
    }
    const sum = (measured: Measured, pick: (u: Measured['usage'][number]) => number) => measured.usage.reduce((total, u) => total + pick(u), 0);
    for (const [label, measured] of [['all tools up front', plain], ['defer_loading + tool search', searched]] as const) {
      const covered = Math.min(
        ...measured.requests.map((r) => {
          const { chars, coveredChars } = PromptCacheModel.coverage(r.body);
          return coveredChars / chars;
        }),
      );
      const readShares = measured.usage.map((u) => percent(u.read, u.input + u.read + u.written));
      cacheRows.push([
        app.name,
        label,
        percent(covered, 1),
        readShares.join(' · '),
        ratio(sum(measured, (u) => u.input + u.written), sum(uncached, (u) => u.input)),
      ]);
    }
  }
  writeSection(
    'definitions',
    [
      '## 8. Tool definitions and prompt caching',
      '',
      `A five-turn \`runToolLoop\` (four calls, then the answer) against the scripted server, per app: all tools sent up front, and all but ${UP_FRONT} with \`defer_loading\` and the regex tool search tool (the first response searches and loads the tools it calls). Bytes are of the JSON definitions; "in context" counts a deferred tool only once a \`tool_reference\` in the conversation loaded it.`,
      '',
      markdownTable(['app', 'request', 'up front: bytes (wire = context)', 'deferred: bytes on the wire', 'deferred: bytes in context', 'in context, deferred vs up front'], sizeRows),
      '',
      'Prompt caching on (the default): the smallest share, over the five requests, of a request\'s prompt that lies before its last breakpoint; by `PromptCacheModel` (4 characters a token, no minimum cacheable length), the share of each request\'s input read from the cache (requests 1 to 5), and the run\'s input not read from the cache against the same app with all tools up front and `promptCaching: false`.',
      '',
      markdownTable(['app', 'tools', 'prompt before a breakpoint (least)', 'input read from cache, per request', 'uncached input vs all tools up front without caching'], cacheRows),
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
