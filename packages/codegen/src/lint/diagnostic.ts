import { Node, type ts } from 'ts-morph';
import { lineAndColumnOf } from './position';

export type Severity = 'error' | 'warning';

/** One problem found in the user's code, pointing at the source and at the tool it affects. */
export interface Diagnostic {
  severity: Severity;
  /** Absolute path of the file the problem is in. */
  file: string;
  line: number;
  column: number;
  /** `Class.method → param → property`: where in the tool's input the problem sits. */
  path: string;
  message: string;
}

/**
 * What a diagnostic points at: a ts-morph node, or the compiler's own node where wrapping every
 * node read (each JSDoc tag) would cost more than the reading.
 */
export type SourceNode = Node | ts.Node;

/** Collects every problem of a run so the user sees them all at once. */
export class Diagnostics {
  private readonly items: Diagnostic[] = [];
  private readonly keys = new Set<string>();
  /** Where and what, without the path: what earlier tools already reported. */
  private readonly merged = new Set<string>();
  private errors = 0;

  error(node: SourceNode, path: readonly string[], message: string): void {
    this.add('error', node, path, message);
  }

  warning(node: SourceNode, path: readonly string[], message: string): void {
    this.add('warning', node, path, message);
  }

  /** An error about the project rather than a node of it (no tools at all: at the tsconfig). */
  errorAt(location: { file: string; line: number; column: number }, message: string): void {
    this.push({ severity: 'error', ...location, path: '', message });
  }

  /**
   * Takes in one tool's problems. A problem in a type several tools share is reached once per
   * tool, each time with that tool's path: it is reported for the first of them only.
   */
  merge(diagnostics: readonly Diagnostic[]): void {
    const keys = diagnostics.map((d) => JSON.stringify([d.file, d.line, d.column, d.message]));
    diagnostics.forEach((diagnostic, i) => {
      if (!this.merged.has(keys[i])) this.push(diagnostic);
    });
    for (const key of keys) this.merged.add(key);
  }

  get all(): Diagnostic[] {
    return [...this.items].sort(compareDiagnostics);
  }

  get errorCount(): number {
    return this.errors;
  }

  private add(severity: Severity, node: SourceNode, path: readonly string[], message: string): void {
    const compiled = Node.isNode(node) ? node.compilerNode : node;
    const source = compiled.getSourceFile();
    const { line, column } = lineAndColumnOf(source, compiled.getStart(source));
    this.push({ severity, file: source.fileName, line, column, path: path.join(' → '), message });
  }

  private push(diagnostic: Diagnostic): void {
    const { line, column, message, severity } = diagnostic;
    // The same problem reached twice on the same path is reported once, whatever its severity.
    const key = JSON.stringify([diagnostic.file, line, column, diagnostic.path, message]);
    if (this.keys.has(key)) return;
    this.keys.add(key);
    this.items.push(diagnostic);
    if (severity === 'error') this.errors++;
  }
}

function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.path.localeCompare(b.path);
}
