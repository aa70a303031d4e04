// The floor for any ts-morph codegen: load the project and read every tool method's JSDoc and
// parameter types through the checker, building no schema. Usage: node ts-morph-floor.js <tsconfig>
import { Node, Project, type Symbol as MorphSymbol, type Type } from 'ts-morph';
import { readProjectConfig } from '../../../packages/codegen/dist/project/tsconfig';
import { reportMaxRss } from '../lib/child';

const [tsconfig] = process.argv.slice(2);
// The project loaded as tools-codegen loads it (its own tsconfig reader, the files it selects,
// the same Project options), so the floor reads exactly what it reads.
const config = readProjectConfig(tsconfig);
const project = new Project({ compilerOptions: config.options, skipFileDependencyResolution: true });
for (const file of config.fileNames) project.addSourceFileAtPathIfExists(file);

let propertiesRead = 0;
let docChars = 0;

function readDocs(node: Node): void {
  if (Node.isJSDocable(node)) {
    for (const doc of node.getJsDocs()) {
      docChars += doc.getDescription().length;
      for (const tag of doc.getTags()) docChars += tag.getTagName().length + (tag.getCommentText()?.length ?? 0);
    }
  }
}

/** Visits every property the way a schema builder must, without building anything. */
function readType(type: Type, at: Node, depth: number): void {
  if (depth > 8) return;
  if (type.isArray()) return readType(type.getArrayElementTypeOrThrow(), at, depth + 1);
  if (type.isUnion()) return type.getUnionTypes().forEach((t) => readType(t, at, depth + 1));
  if (!type.isObject()) return;
  type.getProperties().forEach((property: MorphSymbol) => {
    propertiesRead++;
    property.getDeclarations().forEach(readDocs);
    readType(property.getTypeAtLocation(at), at, depth + 1);
  });
}

for (const file of project.getSourceFiles()) {
  if (file.isDeclarationFile()) continue;
  for (const cls of file.getClasses()) {
    for (const method of cls.getMethods()) {
      if (!method.getDecorator('Tool')) continue;
      readDocs(method);
      for (const parameter of method.getParameters()) readType(parameter.getType(), parameter, 0);
    }
  }
}

process.stdout.write(`properties=${propertiesRead} docChars=${docChars}\n`);
reportMaxRss();
