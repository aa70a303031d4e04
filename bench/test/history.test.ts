// bench/HISTORY.md is read back from the goal lines of each RESULTS.md: a line the reader
// misses or splits wrongly would drop or garble a run's verdict in the history.
import { goalLines, headerField, historyDocument, measuredCommit } from '../src/lib/history';

const RESULTS = [
  '# toolwright benchmarks',
  '',
  '- Date: 2026-12-07T18:34:02.107Z',
  '- Code: 64a2ae9',
  '- Machine: 2 × AMD EPYC',
  '',
  '## 1. Dispatch cost per call',
  '',
  '- `ToolContainer.execute` on valid input within 3× the schema-check floor: **met** (2.93×; 3.02× over the medians).',
  '',
  '## 2. Scheduling',
  '',
  'Goal, within 5% of the critical path (rows where the bound is not the limit): **met** (worst 1.02×). With the default of 8, 16 reads run in two waves.',
  '',
  '## 3. Codegen',
  '',
  'Goals: within 1.25× of the ts-morph floor: **met** (worst 1.14×); faster than ts-json-schema-generator at every N: **not met**.',
  'Goal: manifest + container within 1.15× the dependencies import: **met** (0.79× (a | b)).',
].join('\n');

describe('goalLines', () => {
  it('reads every goal of a RESULTS.md with its section, verdict and figures, whatever lead the section writes', () => {
    expect(goalLines(RESULTS)).toEqual([
      { section: '1. Dispatch cost per call', goal: '`ToolContainer.execute` on valid input within 3× the schema-check floor', verdict: 'met', figures: '2.93×; 3.02× over the medians' },
      { section: '2. Scheduling', goal: 'within 5% of the critical path (rows where the bound is not the limit)', verdict: 'met', figures: 'worst 1.02×' },
      { section: '3. Codegen', goal: 'within 1.25× of the ts-morph floor', verdict: 'met', figures: 'worst 1.14×' },
      { section: '3. Codegen', goal: 'faster than ts-json-schema-generator at every N', verdict: 'not met', figures: '' },
      { section: '3. Codegen', goal: 'manifest + container within 1.15× the dependencies import', verdict: 'met', figures: '0.79× (a | b)' },
    ]);
  });

  it('reads no goal from prose that only mentions one', () => {
    expect(goalLines('## 9. MCP\n\nGoal: ≤ 1.10×. The **met** lines are below.')).toEqual([]);
  });
});

describe('the header and the commit a run measured', () => {
  it('reads header fields by name, undefined when absent', () => {
    expect(headerField(RESULTS, 'Code')).toBe('64a2ae9');
    expect(headerField(RESULTS, 'Command')).toBeUndefined();
  });

  it('finds the measured commit in the subjects results were committed with, and none where none is named', () => {
    expect(measuredCommit('bench: RESULTS.md from one full run of 64a2ae9 (every goal met)')).toBe('64a2ae9');
    expect(measuredCommit('bench/RESULTS.md from one full pnpm bench of 7b4ac6a: a further tool')).toBe('7b4ac6a');
    expect(measuredCommit('bench/RESULTS.md from one full run of main at e40c951 (MCP)')).toBe('e40c951');
    expect(measuredCommit('bench/RESULTS.md: one full pnpm bench of main at 3f340d0 (15 min)')).toBe('3f340d0');
    expect(measuredCommit('bench: RESULTS.md from one full pnpm bench run')).toBeUndefined();
  });
});

describe('historyDocument', () => {
  it('writes one table per run, newest as given, with a pipe in a figure escaped so the row keeps its cells', () => {
    const goals = goalLines(RESULTS);
    const text = historyDocument([
      { date: '2026-12-07T18:34:02.107Z', code: '64a2ae9', recordedIn: undefined, machine: '2 × AMD EPYC', goals },
      { date: '2026-11-30T13:41:51.087Z', code: undefined, recordedIn: '48160f5', machine: undefined, goals: goals.slice(3, 4) },
    ]);
    expect(text).toContain('## 2026-12-07T18:34:02.107Z · code 64a2ae9 · not committed yet\n\nMachine: 2 × AMD EPYC\n\n4 of 5 goals met.');
    expect(text).toContain('## 2026-11-30T13:41:51.087Z · code not recorded · recorded in 48160f5\n\n0 of 1 goals met.');
    expect(text.indexOf('2026-12-07')).toBeLessThan(text.indexOf('2026-11-30'));
    expect(text).toContain('| 3. Codegen | manifest + container within 1.15× the dependencies import | **met** | 0.79× (a \\| b) |');
  });
});
