import { readDecoratedTools, type DecoratedTool } from '../decorators/tool-metadata';
import { TOOL_NAME_PATTERN } from './tool-name';
import type { Class, ToolManifest, ToolManifestEntry } from './manifest.types';

/** The manifest and the running code disagree; the fix is to regenerate it. */
export class ManifestMismatchError extends Error {
  override name = 'ManifestMismatchError';
  constructor(readonly problems: readonly string[]) {
    super(
      `The tool manifest does not match the code (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n` +
        problems.map((p) => `  - ${p}`).join('\n') +
        '\nRun `tools-codegen` to regenerate the manifest, then rebuild.',
    );
  }
}

/** A manifest entry matched with the provider instance and the decorators that back it. */
export interface BoundTool {
  entry: ToolManifestEntry;
  instance: object;
  decorated: DecoratedTool;
}

/**
 * Pairs every manifest entry with a provider instance and its decorators, and collects every
 * disagreement so the user sees them all at once.
 */
export function bindManifest(manifest: ToolManifest, providers: readonly object[]): BoundTool[] {
  const problems: string[] = [];
  const bound: BoundTool[] = [];
  const byName = new Map<string, string>();
  const covered = new Set<ToolManifestEntry>();

  for (const instance of providers) {
    const cls = instance.constructor as Class;
    for (const decorated of readDecoratedTools(cls)) {
      const where = `${cls.name}.${decorated.method}`;
      const entry = manifest.entries.find((e) => instance instanceof e.provider && e.method === decorated.method);
      if (!entry) {
        problems.push(`${where} has @Tool but no manifest entry`);
        continue;
      }
      covered.add(entry);
      problems.push(...compare(where, entry, decorated, (instance as any)[decorated.method]));
      const previous = byName.get(entry.definition.name);
      if (previous) problems.push(`${where} and ${previous} are both named "${entry.definition.name}"`);
      byName.set(entry.definition.name, where);
      bound.push({ entry, instance, decorated });
    }
  }
  for (const entry of manifest.entries) {
    if (covered.has(entry)) continue;
    const where = `${entry.provider.name}.${entry.method}`;
    const hasProvider = providers.some((p) => p instanceof entry.provider);
    problems.push(
      hasProvider
        ? `${where} is in the manifest but the method has no @Tool decorator`
        : `${where} is in the manifest but no provider instance of ${entry.provider.name} was given`,
    );
  }
  if (problems.length > 0) throw new ManifestMismatchError(problems);
  return bound;
}

function compare(where: string, entry: ToolManifestEntry, decorated: DecoratedTool, fn: unknown): string[] {
  const problems: string[] = [];
  const name = entry.definition.name;
  if (name !== decorated.name) problems.push(`${where}: manifest name "${name}", decorators say "${decorated.name}"`);
  if (!TOOL_NAME_PATTERN.test(name)) problems.push(`${where}: name "${name}" does not match ${TOOL_NAME_PATTERN}`);
  const effect = decorated.options.effect ?? 'write';
  if (entry.effect !== effect) problems.push(`${where}: manifest effect '${entry.effect}', decorators say '${effect}'`);
  const arity = Math.max(
    typeof fn === 'function' ? fn.length : 0,
    ...decorated.params.map((p) => p.index + 1),
  );
  if (entry.parameters.length !== arity) {
    problems.push(`${where}: manifest maps ${entry.parameters.length} parameter(s), the method has ${arity}`);
    return problems;
  }
  entry.parameters.forEach((binding, index) => {
    const param = decorated.params.find((p) => p.index === index);
    if (!param) {
      problems.push(`${where}: parameter ${index} has no @Param, @Input or @Ctx decorator`);
    } else if (param.kind !== binding.kind) {
      problems.push(`${where}: parameter ${index} is @${cap(param.kind)} in the code, '${binding.kind}' in the manifest`);
    } else if (binding.kind === 'param' && param.options?.name !== undefined && param.options.name !== binding.property) {
      problems.push(`${where}: parameter ${index} is named "${param.options.name}" in @Param, "${binding.property}" in the manifest`);
    }
  });
  return problems;
}

function cap(kind: string): string {
  return kind[0].toUpperCase() + kind.slice(1);
}
