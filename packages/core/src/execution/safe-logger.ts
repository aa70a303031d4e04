import type { ToolLogger } from '../context';

/**
 * The application's logger, made unable to break a batch: a logger that throws (a full disk, a
 * closed transport, a method missing) loses that one line, and the results stay what they were.
 */
export function safeLogger(logger: ToolLogger): ToolLogger {
  const level =
    (name: 'error' | 'warn') =>
    (message: string, ...details: unknown[]) => {
      try {
        logger[name](message, ...details);
      } catch {
        // Nowhere left to report it: the logger is the place failures go.
      }
    };
  return { error: level('error'), warn: level('warn') };
}
