import type { ToolManifest, ToolManifestEntry } from './manifest.types';

/** Wraps the generated entries; the generated module's only runtime call into toolwright. */
export function defineToolManifest(entries: readonly ToolManifestEntry[]): ToolManifest {
  return { entries: Object.freeze([...entries]) };
}
