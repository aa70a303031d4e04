import { Logger } from '@nestjs/common';
import type { ToolLogger } from '@toolwright/core';

/**
 * The default `ToolLogger` inside Nest: unexpected tool failures go through the application's
 * logger (its format, levels and transports) instead of straight to stderr.
 */
export function nestToolLogger(logger = new Logger('ToolsModule')): ToolLogger {
  return {
    error: (message, ...details) => logger.error(message, ...details),
    warn: (message, ...details) => logger.warn(message, ...details),
  };
}
