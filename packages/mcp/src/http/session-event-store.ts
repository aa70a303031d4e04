import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

export interface EventStoreLimits {
  /** Events kept; the oldest go first. */
  maxEvents: number;
  /** Bytes of their JSON kept; the oldest go first, and one larger event is kept alone. */
  maxBytes: number;
}

interface StoredEvent {
  readonly id: string;
  readonly streamId: string;
  readonly message: JSONRPCMessage;
  readonly bytes: number;
}

/**
 * The SSE events of one 2025-11-25 session, so a client whose stream dropped can reconnect with
 * `Last-Event-ID` and get what it missed (the transport sends a priming event with an id first).
 * One store per session, dropped with it: an event id of another session is unknown here, and
 * the handler answers another principal's request on this session 404 before it gets this far.
 * The SDK ships no server-side store; this one keeps the newest events within `limits`.
 */
export class SessionEventStore implements EventStore {
  private readonly events: StoredEvent[] = [];
  private bytes = 0;
  private next = 0;

  constructor(private readonly limits: EventStoreLimits) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const event: StoredEvent = { id: String(++this.next), streamId, message, bytes: Buffer.byteLength(JSON.stringify(message)) };
    this.events.push(event);
    this.bytes += event.bytes;
    while (this.events.length > 1 && (this.events.length > this.limits.maxEvents || this.bytes > this.limits.maxBytes)) {
      this.bytes -= this.events.shift()!.bytes;
    }
    return event.id;
  }

  /** The stream of a kept event; `undefined` (answered 400) for an id this session never sent or no longer keeps. */
  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.find((e) => e.id === eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const from = this.events.findIndex((e) => e.id === lastEventId);
    if (from < 0) throw new Error(`no event ${JSON.stringify(lastEventId)} is kept for this session`);
    const { streamId } = this.events[from];
    for (const event of this.events.slice(from + 1)) if (event.streamId === streamId) await send(event.id, event.message);
    return streamId;
  }

  /** Events kept (for tests: the bound holds). */
  get size(): number {
    return this.events.length;
  }
}
