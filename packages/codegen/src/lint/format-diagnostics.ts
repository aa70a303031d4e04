import * as path from 'node:path';
import type { Diagnostic } from './diagnostic';

/** `src/orders.ts:12:5 error Orders.cancel → input → reason: ...`, one line per problem. */
export function formatDiagnostic(diagnostic: Diagnostic, cwd: string): string {
  const file = path.relative(cwd, diagnostic.file) || diagnostic.file;
  const where = diagnostic.path === '' ? '' : ` ${diagnostic.path}`;
  return `${file}:${diagnostic.line}:${diagnostic.column} ${diagnostic.severity}${where}: ${diagnostic.message}`;
}

/** The closing line of a run: how many errors and warnings. */
export function summarize(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  return `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
}
