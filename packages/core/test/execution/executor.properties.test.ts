import fc from 'fast-check';
import {
  asAnswered,
  batches,
  duplicateIdBatches,
  repeatedId,
  effectiveConcurrency,
  effectivePolicy,
  expectedAnswers,
  expectedSegments,
  idOf,
  mayWrite,
  runBatch,
  type Batch,
} from './arbitraries';

// The guarantees of issues 3 and 12, each checked on 1,000 random batches (hostile tools, loggers and
// listeners included, see arbitraries.ts). Time is jest's fake clock:
// tools "take" 0–3 ms and time out after 10 ms without any real waiting, and the lab records
// instants on a monotonic counter, so every check is exact and none depends on machine speed.

const RUNS = { numRuns: 1000 };

beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
});

afterEach(() => {
  jest.useRealTimers();
});

/** Every own key of Object.prototype with what it holds, compared by identity. */
function prototypeSnapshot(): Array<[PropertyKey, unknown, unknown, unknown]> {
  return Reflect.ownKeys(Object.prototype).map((key) => {
    const d = Object.getOwnPropertyDescriptor(Object.prototype, key)!;
    return [key, d.value, d.get, d.set];
  });
}

describe('executor guarantees (property tests)', () => {
  it('1. execute resolves with one result per tool_use, same ids, same order', async () => {
    await fc.assert(
      fc.asyncProperty(batches(), async (batch) => {
        const { results, outcomes, lab, eventsAtSettle } = await runBatch(batch);
        expect(results.map((r) => r.tool_use_id)).toEqual(batch.calls.map((_, i) => idOf(i)));
        for (const result of results) {
          expect(result.type).toBe('tool_result');
          expect(result.is_error === undefined || result.is_error === true).toBe(true);
        }
        // Exactly one ending per call, and every call that started also ended.
        expect(outcomes.every((o) => o !== undefined)).toBe(true);
        expect(lab.countEvents('call_end') + lab.countEvents('call_skipped')).toBe(batch.calls.length);
        expect(lab.countEvents('call_start')).toBe(lab.countEvents('call_end'));
        expect(lab.events.length).toBe(eventsAtSettle);
      }),
      RUNS,
    );
  });

  it('2. no two writes overlap, no read overlaps a write, and writes keep the model order', async () => {
    await fc.assert(
      fc.asyncProperty(batches(), async (batch) => {
        const { lab, runningAtSettle } = await runBatch(batch);
        const traces = batch.calls.map((_, i) => lab.traces.get(idOf(i)));
        // Nothing a batch started is still running once execute has answered.
        expect(runningAtSettle).toEqual([]);
        batch.calls.forEach((call, w) => {
          const write = traces[w];
          if (!mayWrite(call.name) || !write) return;
          traces.forEach((other, i) => {
            if (!other || i === w) return;
            if (i < w) expect(other.end!).toBeLessThan(write.first);
            else expect(write.end!).toBeLessThan(other.first);
          });
        });
      }),
      RUNS,
    );
  });

  it('3. with maxConcurrency > 1, the reads of a segment run at the same time, up to the bound', async () => {
    // Each read_wait call blocks until min(maxConcurrency, its segment's read_wait count) of
    // them are inside their method at once; its own timeout (60 s) is far beyond anything else
    // in the batch. An executor that ran them one by one, or fewer at a time than it may, would
    // leave them waiting until that timeout.
    await fc.assert(
      fc.asyncProperty(batches({ minConcurrency: 2, withBarriers: true }), async (batch) => {
        const { lab, outcomes, startSeq } = await runBatch(batch);
        expect(lab.maxInFlightReads).toBeLessThanOrEqual(effectiveConcurrency(batch));
        expectedSegments(batch.calls).forEach(([start, end], segment) => {
          const waiting = batch.calls.map((c, i) => ({ c, i })).slice(start, end).filter(({ c }) => c.name === 'read_wait');
          if (waiting.length === 0 || waiting.every(({ i }) => startSeq[i] === undefined)) return;
          for (const { i } of waiting) expect(outcomes[i]).toBe('ok');
          expect(lab.latch(segment)!.maxInFlight).toBe(Math.min(effectiveConcurrency(batch), waiting.length));
        });
      }),
      RUNS,
    );
  });

  it("4. with 'halt', nothing written after a failed write starts; a failed read halts nothing", async () => {
    await fc.assert(
      fc.asyncProperty(batches(), async (batch) => {
        const { lab, results, outcomes, startSeq } = await runBatch(batch);
        const failed = batch.calls.findIndex((c, i) => mayWrite(c.name) && outcomes[i] !== 'ok');
        const halts = effectivePolicy(batch) === 'halt' && failed >= 0;
        batch.calls.forEach((_, i) => {
          const id = idOf(i);
          if (halts && i > failed) {
            expect(startSeq[i]).toBeUndefined();
            expect(lab.traces.has(id)).toBe(false);
            expect(results[i]).toEqual({
              type: 'tool_result',
              tool_use_id: id,
              is_error: true,
              content: `Not executed: an earlier call in this batch (${batch.calls[failed].name}, ${idOf(failed)}) failed.`,
            });
          } else {
            expect(startSeq[i]).toBeDefined();
            expect(outcomes[i]).not.toBe('not_executed');
          }
        });
      }),
      RUNS,
    );
  });

  it('5. a tool whose input is invalid is never called, and tools only ever receive valid input', async () => {
    await fc.assert(
      fc.asyncProperty(batches(), async (batch) => {
        const { lab, outcomes } = await runBatch(batch);
        batch.calls.forEach((call, i) => {
          if (call.valid) return;
          expect(lab.traces.has(idOf(i))).toBe(false);
          if (outcomes[i] !== 'not_executed' && outcomes[i] !== 'unknown_tool') expect(outcomes[i]).toBe('invalid_input');
        });
        for (const trace of lab.traces.values()) expect(trace.receivedInvalid).toBe(false);
      }),
      RUNS,
    );
  });

  it('6. Object.prototype is unchanged afterwards', async () => {
    await fc.assert(
      fc.asyncProperty(batches(), async (batch) => {
        const before = prototypeSnapshot();
        await runBatch(batch);
        const after = prototypeSnapshot();
        const changed = after.length !== before.length || after.some((entry, i) => entry.some((part, j) => part !== before[i][j]));
        expect(changed ? after.map(([key]) => String(key)) : []).toEqual([]);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(Object.getPrototypeOf({})).toBe(Object.prototype);
      }),
      RUNS,
    );
  });

  it('7. once the signal aborts, execute resolves without waiting on any tool or timer, and starts nothing new', async () => {
    await fc.assert(
      fc.asyncProperty(batches({ abort: true }), async (batch: Batch) => {
        const { lab, results, settledAt, outcomes, terminalSeq, startSeq, abortedAt: aborted } = await runBatch(batch);
        if (!aborted) return;
        // Not one tick of fake time passed between the abort and the answer.
        expect(settledAt).toBe(aborted.now);
        for (const seq of startSeq) if (seq !== undefined) expect(seq).toBeLessThan(aborted.seq);
        for (const trace of lab.traces.values()) {
          expect(trace.first).toBeLessThan(aborted.seq);
          if (trace.methodStarted !== undefined) expect(trace.methodStarted).toBeLessThan(aborted.seq);
          // A method still running at the abort saw its ctx.signal abort.
          if (trace.methodStarted !== undefined && trace.end! > aborted.seq) expect(trace.sawAbort).toBe(true);
        }
        batch.calls.forEach((call, i) => {
          if (terminalSeq[i]! < aborted.seq) return;
          // Its code had already finished (or timed out) before the abort: its answer was on the way.
          const trace = lab.traces.get(idOf(i));
          if (trace && trace.end! < aborted.seq) return;
          // A call that had begun before the abort may still end the way it would have without
          // running anything: its input refused, or its name unknown.
          if (outcomes[i] === 'invalid_input') {
            expect(call.valid).toBe(false);
            return;
          }
          if (outcomes[i] === 'unknown_tool') {
            expect(startSeq[i]).toBeLessThan(aborted.seq);
            return;
          }
          expect(outcomes[i]).toBe('cancelled');
          expect(results[i].is_error).toBe(true);
          expect(results[i].content).toBe(
            trace && mayWrite(call.name) ? 'Cancelled while running; whether this write took effect is unknown.' : 'Cancelled.',
          );
        });
      }),
      RUNS,
    );
  });

  it('8. whatever a tool throws or returns, every call gets exactly one result, in order, and a completed write is reported ok', async () => {
    // The batches mix in hostile tools (Proxies whose every trap throws, throwing getters, fake
    // ToolErrors, malformed blocks, megabyte strings), a logger and listeners that throw.
    await fc.assert(
      fc.asyncProperty(batches(), async (batch) => {
        const { lab, results, outcomes } = await runBatch(batch);
        expect(results.map((r) => r.tool_use_id)).toEqual(batch.calls.map((_, i) => idOf(i)));
        batch.calls.forEach((call, i) => {
          if (!lab.traces.get(idOf(i))?.completed) return;
          expect(outcomes[i]).toBe('ok');
          expect(results[i].is_error).toBeUndefined();
        });
        const sent = JSON.stringify(results);
        expect(sent.length).toBeLessThanOrEqual(2 + batch.calls.length * 3_000);
      }),
      RUNS,
    );
  });

  it('9. a message that repeats a tool_use id is refused whole: nothing runs, every call is answered as not run, ids kept', async () => {
    await fc.assert(
      fc.asyncProperty(duplicateIdBatches(), async (batch) => {
        const ids = batch.ids!;
        const { id, times } = repeatedId(ids)!;
        const { lab, results } = await runBatch(batch);
        expect(lab.traces.size).toBe(0);
        expect(lab.countEvents('call_start')).toBe(0);
        // Each call is announced as skipped for its id, in order (a listener that throws included).
        expect(lab.events.map(({ event }) => (event.type === 'call_skipped' ? `${event.toolUseId} ${event.reason}` : event.type))).toEqual(
          ids.map((toolUseId) => `${toolUseId} duplicate_id`),
        );
        expect(results).toEqual(
          ids.map((toolUseId) => ({
            type: 'tool_result',
            tool_use_id: toolUseId,
            is_error: true,
            content: asAnswered(`Not executed: tool_use id "${id}" appears ${times} times in this message; ids must be unique, so no call of it was run.`),
          })),
        );
      }),
      RUNS,
    );
  });

  it('every result is the one its call earned, by a reference model of the executor', async () => {
    await fc.assert(
      fc.asyncProperty(batches(), async (batch) => {
        const { results, outcomes } = await runBatch(batch);
        const expected = expectedAnswers(batch);
        expect(outcomes).toEqual(expected.map((e) => e.outcome));
        results.forEach((result, i) => {
          expect(result.is_error).toBe(expected[i].outcome === 'ok' ? undefined : true);
          if (expected[i].outcome === 'invalid_input') expect(result.content).toMatch(/^Invalid input/);
          else expect(result.content).toEqual(expected[i].content);
        });
      }),
      RUNS,
    );
  });
});
