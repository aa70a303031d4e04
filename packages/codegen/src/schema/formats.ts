/** The `format` values JSON Schema 2020-12 defines; anything else is a typo or a custom format. */
export const KNOWN_FORMATS: readonly string[] = [
  'date-time', 'date', 'time', 'duration', 'email', 'idn-email', 'hostname', 'idn-hostname', 'ipv4', 'ipv6',
  'uri', 'uri-reference', 'iri', 'iri-reference', 'uuid', 'uri-template', 'json-pointer', 'relative-json-pointer', 'regex',
];

/** Formats a strict tool may keep (the rest move into the description), per the SDK. */
export const STRICT_FORMATS: readonly string[] = [
  'date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid',
];

/**
 * Checks used to test `@example` values against the schema at build time. They are deliberately
 * plain; the run-time checks are class-validator's.
 */
export const FORMAT_CHECKS: Record<string, RegExp> = {
  'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  time: /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  uri: /^[a-z][a-z0-9+.-]*:\S*$/i,
  ipv4: /^(\d{1,3}\.){3}\d{1,3}$/,
};

/** A pattern as JSON Schema validators read it: an ECMAScript regex with the `u` flag. */
export function patternProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
