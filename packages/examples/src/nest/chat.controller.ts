import {
  BadRequestException,
  Body,
  ConflictException,
  Controller,
  Headers,
  HttpCode,
  Logger,
  NotFoundException,
  Param,
  Post,
  Req,
  Res,
  ServiceUnavailableException,
  StreamableFile,
  UseGuards,
} from '@nestjs/common';
import { DecisionError, RunClaimError, RunConflictError, RunStoreError, toServerSentEvents, type ToolLoopResult, type ToolStream } from '@toolwright/core';
import { ToolsService, nestToolLogger } from '@toolwright/nest';
import type { Session } from '../orders/session';
import { SessionGuard, type AuthenticatedRequest } from './session.guard';

const logger = nestToolLogger(new Logger('ChatController'));

/** A 503's words: what the client can do. A run still claimed elsewhere answers the retry 409 until it is free. */
const STORE_DOWN = 'The run store did not answer. Nothing was lost: send the same request again in a moment.';

/** What the app answers for a run: 200 when it ended, 202 with the calls to decide when it paused. */
function answer(run: ToolLoopResult, response: { status(code: number): unknown }) {
  if (run.stopReason === 'approval_required') {
    response.status(202);
    return { runId: run.runId, pending: run.pending, text: run.text };
  }
  return { text: run.text, stopReason: run.stopReason, turns: run.turns };
}

@Controller()
@UseGuards(SessionGuard)
export class ChatController {
  constructor(private readonly tools: ToolsService<Session>) {}

  /**
   * One question, answered by the loop for the signed-in customer: JSON (202 when a write waits
   * for approval), or the loop's events as Server-Sent Events when the client sends
   * `Accept: text/event-stream`.
   */
  @Post('chat')
  @HttpCode(200)
  async chat(
    @Body() body: { message?: unknown },
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) response: { status(code: number): unknown },
    @Headers('accept') accept?: string,
  ) {
    if (typeof body?.message !== 'string' || body.message.length === 0) {
      throw new BadRequestException('send {"message": "<your question>"}');
    }
    // The identity comes from the guard: tools read it as ctx.auth, and the run belongs to this customer.
    const options = { prompt: body.message, context: { auth: request.user }, owner: request.user.customerId };
    if (wantsEvents(accept)) return events(this.tools.stream(options));
    return answer(await this.tools.run(options), response);
  }

  /**
   * The customer's decisions on a paused run: `{ "decisions": { "<toolUseId>": { "approve": true } } }`,
   * answered as JSON or, with `Accept: text/event-stream`, as the resumed run's events. Any
   * instance of the app may take it; only the customer who started the run may decide it, and
   * the guards run again with them. Refusals are HTTP statuses either way: the stream starts
   * only once the run is claimed.
   */
  @Post('runs/:id/decisions')
  @HttpCode(200)
  async decide(
    @Param('id') runId: string,
    @Body() body: { decisions?: unknown },
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) response: { status(code: number): unknown },
    @Headers('accept') accept?: string,
  ) {
    const options = { runId, decisions: body?.decisions as never, context: { auth: request.user }, owner: request.user.customerId };
    try {
      if (wantsEvents(accept)) return events(await this.tools.streamResume(options));
      return answer(await this.tools.resume(options), response);
    } catch (error) {
      throw httpError(error);
    }
  }
}

function wantsEvents(accept: string | undefined): boolean {
  return accept?.includes('text/event-stream') ?? false;
}

/**
 * The run's events as Server-Sent Events. A client that disconnects stops receiving, not the
 * run: it goes on to the end, writes included, as it would for a JSON client that closed the
 * tab mid-request.
 */
function events(stream: ToolStream): StreamableFile {
  // A failed run's error stays in the app's log; the browser reads only that the run failed.
  return new StreamableFile(toServerSentEvents(stream, { logger }), { type: 'text/event-stream' });
}

/**
 * The store's and the decisions' refusals as HTTP answers; anything else stays a 500. Another
 * customer's run is answered exactly as an unknown one: whoever guesses or steals a run id
 * learns nothing, not even that the run exists.
 */
function httpError(error: unknown): unknown {
  if (error instanceof DecisionError) {
    if (error.problem === 'unknown_run' || error.problem === 'not_owner') return notFound(error.runId);
    if (error.problem === 'finished_run') return new ConflictException(error.message);
    return new BadRequestException(error.message);
  }
  if (error instanceof RunClaimError) return error.problem === 'unknown_run' ? notFound(error.runId) : new ConflictException(error.message);
  if (error instanceof RunConflictError) return new ConflictException(error.message);
  // The store is down or lost the run's claim. Its message names the database's own error (a host,
  // a user): it goes to the log, and the client is told what it can do.
  if (error instanceof RunStoreError) {
    logger.error(`run ${JSON.stringify(error.runId)}: ${error.message}`);
    return new ServiceUnavailableException(STORE_DOWN);
  }
  return error;
}

function notFound(runId: string): NotFoundException {
  return new NotFoundException(`There is no run ${JSON.stringify(runId)} for this customer.`);
}
