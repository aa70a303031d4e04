import { Readable } from 'node:stream';
import type { ToolStreamEvent } from '../loop/stream-events';

/**
 * The events of a `streamToolLoop` as a `text/event-stream` body: one frame per event,
 * `event: <type>` and `data: <the event as JSON>`. Pipe it into a Node response after setting
 * `content-type: text/event-stream`. It ends after `done`.
 */
export function toServerSentEvents(events: AsyncIterable<ToolStreamEvent>): Readable {
  return Readable.from(frames(events), { objectMode: false });
}

async function* frames(events: AsyncIterable<ToolStreamEvent>): AsyncGenerator<string> {
  for await (const event of events) {
    // JSON.stringify escapes newlines, so the data stays on one line as the format needs.
    yield `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
  }
}
