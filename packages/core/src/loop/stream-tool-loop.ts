import { runEngine, type EngineMode } from './engine';
import { EventBuffer } from './event-buffer';
import type { ToolLoopOptions, ToolLoopResult } from './loop-options';
import type { ToolStreamEvent } from './stream-events';
import { emptyUsage } from './usage';

/** What `streamToolLoop` returns: the events, in order, once; the result; a way to stop. */
export interface ToolStream extends AsyncIterable<ToolStreamEvent> {
  /** The same `ToolLoopResult` as `runToolLoop`; rejects as `runToolLoop` would. */
  readonly result: Promise<ToolLoopResult>;
  /** Aborts the request in flight and the tools running; `result` resolves with `stopReason: 'aborted'`. */
  abort(reason?: unknown): void;
}

/**
 * `runToolLoop` over the streaming Messages API (`stream: true`), yielding text, thinking and
 * tool events as they happen. Reads may start while the model is still writing; writes wait for
 * the whole message (see DESIGN.md, "Eager reads, committed writes"). The run starts at once and
 * does not depend on anyone reading the events.
 */
export function streamToolLoop<TAuth>(options: ToolLoopOptions<TAuth>): ToolStream {
  return engineStream('streamToolLoop', (mode) => runEngine(options, mode));
}

/** A `ToolStream` over the engine run that `start` begins, at once, with the stream's listener and signal. */
export function engineStream(name: EngineMode['name'], start: (mode: EngineMode) => Promise<ToolLoopResult>): ToolStream {
  const events = new EventBuffer<ToolStreamEvent>();
  const controller = new AbortController();
  const result = Promise.resolve()
    .then(() => start({ name, streaming: true, emit: (e) => events.push(e), signal: controller.signal }))
    .then(
      (run) => {
        events.push({ type: 'done', at: Date.now(), stopReason: run.stopReason, text: run.text, turns: run.turns, usage: run.usage });
        events.end();
        return run;
      },
      (error: unknown) => {
        const partial = error as { turns?: number; usage?: ToolLoopResult['usage'] };
        events.push({
          type: 'done',
          at: Date.now(),
          stopReason: 'error',
          text: '',
          turns: partial.turns ?? 0,
          usage: partial.usage ?? emptyUsage(),
          error: error instanceof Error ? error.message : String(error),
        });
        events.end();
        throw error;
      },
    );
  // A caller who only reads the events learns of a failure from `done`; the rejection stays
  // for whoever awaits `result`, without crashing the process as an unhandled one.
  result.catch(() => undefined);
  return {
    result,
    abort: (reason?: unknown) => controller.abort(reason),
    [Symbol.asyncIterator]: () => events[Symbol.asyncIterator](),
  };
}
