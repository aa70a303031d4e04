import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const METHODS_PER_CLASS = 10;

export interface SyntheticProject {
  dir: string;
  tsconfig: string;
  /** The module tools-codegen writes (inside `src`, so the project compiles it too). */
  generatedModule: string;
  /** One file per class. */
  toolFiles: string[];
  /** The exported options interface of every tool method, for the baselines that need type names. */
  optionTypes: string[];
}

const pad = (n: number) => String(n).padStart(4, '0');

/** The options type of one method: the five field kinds the codegen benchmark asks for. */
function optionsInterface(name: string, classIndex: number, method: number): string {
  return `/** Filters for query ${method} of catalog ${classIndex}. */
export interface ${name} {
  /**
   * Product code in the format AB-1234.
   * @pattern ^[A-Z]{2}-\\d{4}$
   */
  code: string;
  /**
   * How many results to return, between 1 and 100.
   * @minimum 1
   * @maximum 100
   */
  limit: number;
  /** Only products in this state. */
  state: 'draft' | 'active' | 'retired';
  /** Also return archived products. */
  includeArchived?: boolean;
  /** Where the products are stocked. */
  stock: {
    /** Warehouse identifier. */
    warehouse: string;
    /** Aisle labels to restrict the search to. */
    aisles: string[];
  };
}`;
}

function toolMethod(optionsType: string, classIndex: number, method: number): string {
  return `  /**
   * Searches catalog ${classIndex} with query ${method}. Use it when the customer asks for products that match these
   * filters. It reads only and changes nothing. Returns the matching product codes.
   * @param options The filters to apply.
   */
  @Tool({ effect: 'read' })
  async query${method}(@Param() options: ${optionsType}): Promise<string[]> {
    return [options.code];
  }`;
}

function toolClass(classIndex: number, methods: number): { source: string; optionTypes: string[] } {
  const className = `Catalog${pad(classIndex)}Tools`;
  const optionTypes = Array.from({ length: methods }, (_, m) => `Catalog${pad(classIndex)}Query${m}Options`);
  const source = [
    `import { Param, Tool, ToolGroup } from '@toolwright/core';`,
    '',
    ...optionTypes.map((name, m) => `${optionsInterface(name, classIndex, m)}\n`),
    `/** Product catalog ${classIndex}. */`,
    // The prefix keeps tool names unique across classes: catalog_0000_query_0, ...
    `@ToolGroup({ prefix: 'catalog_${pad(classIndex)}' })`,
    `export class ${className} {`,
    optionTypes.map((name, m) => toolMethod(name, classIndex, m)).join('\n\n'),
    '}',
    '',
  ].join('\n');
  return { source, optionTypes };
}

/**
 * Writes (replacing) a project of `methods` tool methods in classes of ten, one class per file,
 * that resolves `@toolwright/core` and class-validator through `bench/node_modules`.
 */
export function writeSyntheticProject(dir: string, methods: number): SyntheticProject {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'src', 'tools'), { recursive: true });
  const tsconfig = join(dir, 'tsconfig.json');
  writeFileSync(
    tsconfig,
    JSON.stringify(
      {
        compilerOptions: {
          target: 'es2022',
          lib: ['es2022'],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          skipLibCheck: true,
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          useDefineForClassFields: false,
          types: [],
          rootDir: 'src',
          outDir: 'dist',
        },
        include: ['src'],
      },
      null,
      2,
    ),
  );
  const toolFiles: string[] = [];
  const optionTypes: string[] = [];
  for (let classIndex = 0; classIndex * METHODS_PER_CLASS < methods; classIndex++) {
    const count = Math.min(METHODS_PER_CLASS, methods - classIndex * METHODS_PER_CLASS);
    const generated = toolClass(classIndex, count);
    const file = join(dir, 'src', 'tools', `catalog-${pad(classIndex)}.tools.ts`);
    writeFileSync(file, generated.source);
    toolFiles.push(file);
    optionTypes.push(...generated.optionTypes);
  }
  return { dir, tsconfig, generatedModule: join(dir, 'src', 'tools.generated.ts'), toolFiles, optionTypes };
}
