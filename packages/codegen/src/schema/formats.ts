/**
 * The `format` values of JSON Schema 2020-12 the run time checks (by their RFCs, through
 * ajv-formats); anything else is a typo or a format nobody would enforce (`iri`, `idn-email`).
 */
export const KNOWN_FORMATS: readonly string[] = [
  'date-time', 'date', 'time', 'duration', 'email', 'hostname', 'ipv4', 'ipv6',
  'uri', 'uri-reference', 'uuid', 'uri-template', 'json-pointer', 'relative-json-pointer', 'regex',
];

/** Formats a strict tool may keep (the rest move into the description), per the SDK. */
export const STRICT_FORMATS: readonly string[] = [
  'date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid',
];

/** A pattern as JSON Schema validators read it: an ECMAScript regex with the `u` flag. */
export function patternProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
