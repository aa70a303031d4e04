// Reads Stryker's JSON reports (reports/mutation/<module>.json, mutation-testing-report-schema)
// and prints a score per module and every surviving mutant, for docs/mutation-report.md.
import { existsSync, readFileSync } from 'node:fs';
import { modules } from './modules.mjs';

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

export function summarize(directory = 'reports/mutation') {
  const rows = ['| module | killed | survived | no coverage | compile errors | score |', '|---|---|---|---|---|---|'];
  const survivors = [];
  for (const module of modules) {
    const file = `${directory}/${module.name}.json`;
    if (!existsSync(file)) {
      rows.push(`| ${module.name} | not run | | | | |`);
      continue;
    }
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const count = { detected: 0, survived: 0, noCoverage: 0, invalid: 0 };
    for (const [path, { mutants, source }] of Object.entries(report.files)) {
      const lines = source.split('\n');
      for (const mutant of mutants) {
        if (DETECTED.has(mutant.status)) count.detected++;
        else if (mutant.status === 'Survived') count.survived++;
        else if (mutant.status === 'NoCoverage') count.noCoverage++;
        else count.invalid++;
        if (UNDETECTED.has(mutant.status)) {
          const { line, column } = mutant.location.start;
          const original = lines[line - 1]?.trim() ?? '';
          survivors.push(`- ${module.name} \`${path}:${line}:${column}\` ${mutant.mutatorName} (${mutant.status}): \`${original}\` → \`${mutant.replacement ?? ''}\``);
        }
      }
    }
    const valid = count.detected + count.survived + count.noCoverage;
    const score = valid === 0 ? 'n/a' : `${((100 * count.detected) / valid).toFixed(1)} %`;
    rows.push(`| ${module.name} | ${count.detected} | ${count.survived} | ${count.noCoverage} | ${count.invalid} | ${score} |`);
  }
  return [...rows, '', 'Surviving mutants:', ...(survivors.length ? survivors : ['- none'])].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(summarize());
