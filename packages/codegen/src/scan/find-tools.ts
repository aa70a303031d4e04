import { SyntaxKind, ts, type ClassDeclaration, type Decorator, type MethodDeclaration, type ParameterDeclaration, type SourceFile } from 'ts-morph';
import { TOOLWRIGHT_CORE, decoratorOrigin, isDecoratorFrom } from './decorator-origin';

export type ParameterKind = 'param' | 'input' | 'ctx';

export interface ScannedParameter {
  declaration: ParameterDeclaration;
  /** `undefined` when the parameter has none of `@Param`, `@Input`, `@Ctx`. */
  kind?: ParameterKind;
  decorator?: Decorator;
}

/** A `@Tool` method as found in the source, before anything is derived from it. */
export interface ScannedTool {
  classDeclaration: ClassDeclaration;
  className: string;
  method: MethodDeclaration;
  methodName: string;
  toolDecorator: Decorator;
  groupDecorator?: Decorator;
  parameters: ScannedParameter[];
}

const PARAMETER_DECORATORS: Record<string, ParameterKind> = { Param: 'param', Input: 'input', Ctx: 'ctx' };

/** Every method decorated with `@toolwright/core`'s `@Tool`, in file and declaration order. */
export function findTools(files: readonly SourceFile[]): ScannedTool[] {
  const tools: ScannedTool[] = [];
  for (const file of files) {
    for (const classDeclaration of classDeclarations(file)) {
      let groupDecorator: Decorator | undefined | null = null;
      for (const method of classDeclaration.getMethods()) {
        const toolDecorator = method.getDecorators().find((d) => isDecoratorFrom(d, TOOLWRIGHT_CORE, 'Tool'));
        if (!toolDecorator) continue;
        if (groupDecorator === null) groupDecorator = classDeclaration.getDecorators().find((d) => isDecoratorFrom(d, TOOLWRIGHT_CORE, 'ToolGroup'));
        tools.push({
          classDeclaration,
          className: classDeclaration.getName() ?? '(anonymous class)',
          method,
          methodName: method.getName(),
          toolDecorator,
          groupDecorator,
          parameters: method.getParameters().map(scanParameter),
        });
      }
    }
  }
  return tools;
}

/** Declarations made of types and names only: no class can be declared inside them. */
const CANNOT_HOLD_CLASSES = new Set([ts.SyntaxKind.InterfaceDeclaration, ts.SyntaxKind.TypeAliasDeclaration, ts.SyntaxKind.ImportDeclaration]);

/**
 * The file's class declarations at any depth, in source order. Nearly every class is one of the
 * file's statements: when the word `class` occurs no more often than the file has class
 * statements, there is no other; otherwise the compiler's walk looks for one below the top
 * level, and only then does ts-morph's descendant search run (a generator per level, far slower).
 */
function classDeclarations(file: SourceFile): ClassDeclaration[] {
  const statements = file.getClasses();
  if ((file.getFullText().match(/\bclass\b/g)?.length ?? 0) <= statements.length) return statements;
  const root = file.compilerNode;
  const nested = (node: ts.Node): boolean | undefined =>
    (ts.isClassDeclaration(node) && node.parent !== root) || (!CANNOT_HOLD_CLASSES.has(node.kind) && ts.forEachChild(node, nested));
  return ts.forEachChild(root, nested) ? file.getDescendantsOfKind(SyntaxKind.ClassDeclaration) : statements;
}

function scanParameter(declaration: ParameterDeclaration): ScannedParameter {
  for (const decorator of declaration.getDecorators()) {
    const origin = decoratorOrigin(decorator);
    if (origin?.packageName !== TOOLWRIGHT_CORE || !Object.hasOwn(PARAMETER_DECORATORS, origin.name)) continue;
    return { declaration, kind: PARAMETER_DECORATORS[origin.name], decorator };
  }
  return { declaration };
}


/** A method decorated `@Tool` where that `Tool` is not `@toolwright/core`'s. */
export interface ForeignToolDecorator {
  decorator: Decorator;
  /** `Class.method`. */
  where: string;
  /** The package it comes from; `undefined` when it is not imported at all. */
  packageName?: string;
}

/** `@Tool` decorators that look like toolwright's but are not, to explain a project with no tools. */
export function findForeignToolDecorators(files: readonly SourceFile[]): ForeignToolDecorator[] {
  const found: ForeignToolDecorator[] = [];
  for (const file of files) {
    for (const classDeclaration of classDeclarations(file)) {
      for (const method of classDeclaration.getMethods()) {
        for (const decorator of method.getDecorators()) {
          if (decorator.getName() !== 'Tool') continue;
          const origin = decoratorOrigin(decorator);
          if (origin?.packageName === TOOLWRIGHT_CORE) continue;
          found.push({ decorator, where: `${classDeclaration.getName() ?? '(anonymous class)'}.${method.getName()}`, packageName: origin?.packageName });
        }
      }
    }
  }
  return found;
}
