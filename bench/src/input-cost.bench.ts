// Cost is linear in input size: one `execute` of an input with n keys (a Record) or n array
// elements, from 1k to 100k keys and 1k to 1M elements, with the container's limits raised so
// that every size reaches validation. Linear means the time per key (or element) stays flat:
// the ratio between the largest and the smallest size stays near 1×, where a quadratic path
// would make it grow with the size.
import 'reflect-metadata';
import type { ToolUseBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { ToolContainer } from '@toolwright/core';
import { BulkTools, bulkManifest } from './fixtures/bulk-input.tools';
import { median, timeMs } from './lib/stats';
import { fixed, isCi, markdownTable, progress, ratio, writeSection } from './lib/report';

const KEY_SIZES = isCi ? [100, 1_000] : [1_000, 10_000, 100_000];
const ELEMENT_SIZES = isCi ? [100, 1_000] : [1_000, 10_000, 100_000, 1_000_000];
const ROUNDS = isCi ? 1 : 3;
const RAISED = 100_000_000;

const container = new ToolContainer({
  manifest: bulkManifest,
  providers: [new BulkTools()],
  limits: { maxInputBytes: RAISED, maxKeys: RAISED, maxArrayLength: RAISED },
});

interface Series {
  label: string;
  unit: string;
  sizes: number[];
  input(n: number): object;
}

const series: Series[] = [
  {
    label: 'keys of a Record',
    unit: 'key',
    sizes: KEY_SIZES,
    input: (n) => ({ labels: Object.fromEntries(Array.from({ length: n }, (_, i) => [`label_${i}`, i])) }),
  },
  { label: 'elements of an array', unit: 'element', sizes: ELEMENT_SIZES, input: (n) => ({ values: Array.from({ length: n }, (_, i) => i) }) },
];

const call = (input: object): ToolUseBlockParam[] => [{ type: 'tool_use', id: 'toolu_bench', name: 'bulk_count', input }];

async function measure(s: Series, n: number): Promise<number> {
  const input = s.input(n);
  const [warm] = await container.execute(call(input));
  if (warm.is_error) throw new Error(`bulk_count refused ${n} ${s.unit}s: ${String(warm.content)}`);
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) samples.push(await timeMs(() => container.execute(call(input))));
  return median(samples);
}

async function main(): Promise<void> {
  const sections: string[] = [];
  const summary: string[][] = [];
  for (const s of series) {
    const rows: string[][] = [];
    const perUnit: number[] = [];
    for (const n of s.sizes) {
      progress(`input-cost: ${n.toLocaleString('en-US')} ${s.unit}s`);
      const ms = await measure(s, n);
      const ns = (ms * 1e6) / n;
      perUnit.push(ns);
      rows.push([n.toLocaleString('en-US'), fixed(ms, 1), fixed(ns, 0), ratio(ns, perUnit[0])]);
    }
    summary.push([s.label, ratio(perUnit[perUnit.length - 1], perUnit[0])]);
    sections.push(
      `### ${s.label}`,
      '',
      markdownTable([`${s.unit}s`, 'ms per execute', `ns per ${s.unit}`, `per ${s.unit} ÷ smallest size`], rows),
      '',
    );
  }
  writeSection(
    'input-cost',
    [
      '## 6. Cost is linear in input size',
      '',
      `One \`execute\` of \`bulk_count\` (a read that only counts its input), limits raised, median of ${ROUNDS} rounds after a warm-up. ` +
        'Time per key or element, and its ratio to the smallest size: near 1× is linear, growing with the size is not.',
      '',
      markdownTable(['input', 'per unit, largest ÷ smallest size'], summary),
      '',
      ...sections,
    ].join('\n'),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
