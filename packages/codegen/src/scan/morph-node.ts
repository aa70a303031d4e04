import { ts, type Decorator, type Node, type Project, type PropertyDeclaration } from 'ts-morph';

/**
 * The ts-morph node of one of the program's compiler nodes. The schema walk reads the compiler's
 * nodes; the readers of decorators are written against ts-morph's, and only a property that has
 * decorators is looked up here. Each level asks ts-morph for its cached wrapper of the child.
 */
export function morphNodeOf(project: Project, node: ts.Node): Node {
  if (ts.isSourceFile(node)) return project.getSourceFileOrThrow(node.fileName);
  const found = morphNodeOf(project, node.parent).forEachChild((child) => (child.compilerNode === node ? child : undefined));
  if (!found) throw new Error(`tools-codegen: ts-morph has no node for the ${ts.SyntaxKind[node.kind]} at ${node.getSourceFile().fileName}:${node.getStart()}.`);
  return found;
}

/** A class property's decorators as ts-morph nodes; a property without any is not looked up. */
export function propertyDecorators(project: Project, declaration: ts.PropertyDeclaration): Decorator[] {
  if (!ts.getDecorators(declaration)?.length) return [];
  return (morphNodeOf(project, declaration) as PropertyDeclaration).getDecorators();
}
