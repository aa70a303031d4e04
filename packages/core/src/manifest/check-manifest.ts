import { readDecoratedTools, type DecoratedTool } from '../decorators/tool-metadata';
import { TOOL_NAME_PATTERN } from './tool-name';
import type { Class, ToolManifest, ToolManifestEntry } from './manifest.types';

/**
 * The manifest, the decorators and the provider instances disagree. `stale` problems are fixed by
 * regenerating the manifest; the others by changing what is passed in `providers`, so only the
 * first kind says to run `tools-codegen`.
 */
export class ManifestMismatchError extends Error {
  override name = 'ManifestMismatchError';
  readonly problems: readonly string[];
  constructor(stale: readonly string[], providers: readonly string[] = []) {
    const problems = [...providers, ...stale];
    const count = `${problems.length} problem${problems.length === 1 ? '' : 's'}`;
    super(
      (stale.length > 0 ? `The tool manifest does not match the code (${count}):\n` : `The tool providers do not match the manifest (${count}):\n`) +
        problems.map((p) => `  - ${p}`).join('\n') +
        (stale.length > 0 ? '\nRun `tools-codegen` to regenerate the manifest, then rebuild.' : ''),
    );
    this.problems = problems;
  }
}

const HOW_TO_GET_ONE =
  "run tools-codegen (it writes src/tools.generated.ts; the templates run it before build, test and start), then pass the module's export: " +
  "`import { toolManifest } from './tools.generated'` and `{ manifest: toolManifest }`";

/**
 * What `manifest` was given when it is not a manifest: nothing (the generated module was never
 * written, or its export was misnamed), the module itself, or the `--json` definitions.
 */
export function checkManifestShape(manifest: unknown, owner: string): asserts manifest is ToolManifest {
  if (manifest === undefined || manifest === null) {
    throw new TypeError(`${owner}: no manifest was given (manifest is ${manifest}); ${HOW_TO_GET_ONE}.`);
  }
  if (typeof manifest === 'object' && Array.isArray((manifest as ToolManifest).entries)) return;
  let what: string;
  if (Array.isArray(manifest)) what = 'an array (the --json definitions are for other tools, not the run time)';
  else if (typeof manifest !== 'object') what = `a ${typeof manifest}`;
  else if ('toolManifest' in manifest) what = 'the generated module itself, not its toolManifest export';
  else what = `an object without an "entries" list (keys: ${Object.keys(manifest).slice(0, 5).join(', ') || 'none'})`;
  throw new TypeError(`${owner}: manifest is ${what}; ${HOW_TO_GET_ONE}.`);
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
  const stale: string[] = [];
  const wiring: string[] = [];
  const bound: BoundTool[] = [];
  const byName = new Map<string, string>();
  const covered = new Set<ToolManifestEntry>();
  // Classes whose entries already have a more precise problem than "no instance was given".
  const explained = new Set<Class>();
  const index = new EntryIndex(manifest.entries);

  providers.forEach((instance, position) => {
    const misfit = misfitProvider(instance, position, manifest, index);
    if (misfit) {
      wiring.push(misfit.problem);
      if (misfit.explains) explained.add(misfit.explains);
      return;
    }
    const cls = instance.constructor as Class;
    for (const decorated of readDecoratedTools(cls)) {
      const where = `${cls.name}.${decorated.method}`;
      const entry = index.find(instance, decorated.method);
      if (!entry) {
        stale.push(`${where} has @Tool but no manifest entry`);
        continue;
      }
      covered.add(entry);
      stale.push(...compare(where, entry, decorated, (instance as any)[decorated.method]));
      const previous = byName.get(entry.definition.name);
      if (previous) stale.push(`${where} and ${previous} are both named "${entry.definition.name}"`);
      byName.set(entry.definition.name, where);
      bound.push({ entry, instance, decorated });
    }
  });
  const missing = new Map<Class, string[]>();
  for (const entry of manifest.entries) {
    if (covered.has(entry)) continue;
    if (providers.some((p) => p instanceof entry.provider)) {
      stale.push(`${entry.provider.name}.${entry.method} is in the manifest but the method has no @Tool decorator`);
    } else if (!explained.has(entry.provider)) {
      missing.set(entry.provider, [...(missing.get(entry.provider) ?? []), entry.method]);
    }
  }
  for (const [cls, methods] of missing) {
    wiring.push(
      `${methods.map((m) => `${cls.name}.${m}`).join(', ')} ${methods.length === 1 ? 'is' : 'are'} in the manifest but no provider instance of ${cls.name} was given: ` +
        `pass \`new ${cls.name}(...)\` in \`providers\` (with @toolwright/nest, list ${cls.name} in a module's providers)`,
    );
  }
  if (stale.length > 0 || wiring.length > 0) throw new ManifestMismatchError(stale, wiring);
  return bound;
}

/**
 * A provider that cannot be a tools instance: a class instead of an instance of it, not an object,
 * or an instance of a second copy of a manifest class. `explains`: the manifest class it stands in for.
 */
function misfitProvider(instance: unknown, index: number, manifest: ToolManifest, entries: EntryIndex): { problem: string; explains?: Class } | undefined {
  if (typeof instance === 'function') {
    const name = instance.name || 'ToolsClass';
    return { problem: `providers[${index}] is the class ${name}, not an instance of it; pass \`new ${name}(...)\``, explains: instance as Class };
  }
  if (typeof instance !== 'object' || instance === null) {
    return { problem: `providers[${index}] is ${instance === null ? 'null' : typeof instance}, not a tools class instance` };
  }
  const cls = instance.constructor;
  if (entries.hasProvider(cls)) return undefined;
  const twin = manifest.entries.find((e) => e.provider.name === cls.name && !(instance instanceof e.provider));
  if (!twin) return undefined;
  return {
    problem:
      `providers[${index}] is a ${cls.name}, but not the ${cls.name} class the manifest imports: the module is loaded twice ` +
      '(two paths to it, or once as ESM and once as CommonJS); import the class the way the generated manifest does',
    explains: twin.provider,
  };
}

/**
 * The entries by provider prototype and method, so binding a manifest of n tools takes n lookups,
 * not n scans of it: start-up of a large manifest would otherwise grow with its square.
 */
class EntryIndex {
  private readonly byPrototype = new Map<object, Map<string, number>>();
  private readonly providers = new Set<Class>();

  constructor(private readonly entries: readonly ToolManifestEntry[]) {
    entries.forEach((entry, position) => {
      this.providers.add(entry.provider);
      const methods = this.byPrototype.get(entry.provider.prototype) ?? new Map<string, number>();
      this.byPrototype.set(entry.provider.prototype, methods);
      if (!methods.has(entry.method)) methods.set(entry.method, position);
    });
  }

  hasProvider(cls: unknown): boolean {
    return this.providers.has(cls as Class);
  }

  /** The first entry, in manifest order, for `method` of a class `instance` is an instance of. */
  find(instance: object, method: string): ToolManifestEntry | undefined {
    let first: number | undefined;
    for (let proto = Object.getPrototypeOf(instance); proto; proto = Object.getPrototypeOf(proto)) {
      const position = this.byPrototype.get(proto)?.get(method);
      if (position !== undefined && (first === undefined || position < first)) first = position;
    }
    return first === undefined ? undefined : this.entries[first];
  }
}

function compare(where: string, entry: ToolManifestEntry, decorated: DecoratedTool, fn: unknown): string[] {
  const problems: string[] = [];
  const name = entry.definition.name;
  if (name !== decorated.name) problems.push(`${where}: manifest name "${name}", decorators say "${decorated.name}"`);
  if (!TOOL_NAME_PATTERN.test(name)) problems.push(`${where}: name "${name}" does not match ${TOOL_NAME_PATTERN}`);
  const effect = decorated.options.effect ?? 'write';
  if (entry.effect !== effect) problems.push(`${where}: manifest effect '${entry.effect}', decorators say '${effect}'`);
  // The loops refuse calls by the definition's allowed_callers: a stale one would let the wrong caller in.
  const callers = JSON.stringify(decorated.options.callers ?? null);
  const allowed = JSON.stringify(entry.definition.allowed_callers ?? null);
  if (callers !== allowed) problems.push(`${where}: manifest allowed_callers ${allowed}, decorators say callers ${callers}`);
  // A checks module that failed to load or lost an export would leave every input unchecked.
  if ('inputCheck' in entry && typeof entry.inputCheck !== 'function') {
    problems.push(`${where}: manifest inputCheck is ${entry.inputCheck === null ? 'null' : typeof entry.inputCheck}, not the compiled check function`);
  }
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
