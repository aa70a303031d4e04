import { Readable } from 'node:stream';
import { consoleLogger, type ToolLogger } from '../context';
import type { ToolStreamEvent } from '../loop/stream-events';

/** What a browser reads in a failed run's `done` when the error's own words stay on the server. */
export const HIDDEN_ERROR_TEXT = "The run failed on the server; the server's log has the details.";

export interface ServerSentEventsOptions {
  /**
   * Send a failed run's error message to the client as it is. Off by default: a store's or the
   * Messages API's message can hold a database host, a user name or an upstream error body, so the
   * client reads `HIDDEN_ERROR_TEXT` and the message goes to `logger`.
   */
  exposeErrors?: boolean;
  /** Where a hidden error message goes. Default: stderr. */
  logger?: ToolLogger;
}

/**
 * The events of a `streamToolLoop` as a `text/event-stream` body: one frame per event,
 * `event: <type>` and `data: <the event as JSON>`. Pipe it into a Node response after setting
 * `content-type: text/event-stream`. It ends after `done`.
 */
export function toServerSentEvents(events: AsyncIterable<ToolStreamEvent>, options: ServerSentEventsOptions = {}): Readable {
  return Readable.from(frames(events, options), { objectMode: false });
}

async function* frames(events: AsyncIterable<ToolStreamEvent>, { exposeErrors = false, logger = consoleLogger }: ServerSentEventsOptions): AsyncGenerator<string> {
  for await (const event of events) {
    let sent = event;
    if (event.type === 'done' && event.error !== undefined && !exposeErrors) {
      logger.error('toolwright: a streamed run failed (its client was told only that it failed):', event.error);
      sent = { ...event, error: HIDDEN_ERROR_TEXT };
    }
    // JSON.stringify escapes newlines, so the data stays on one line as the format needs.
    yield `event: ${sent.type}\ndata: ${JSON.stringify(sent)}\n\n`;
  }
}
