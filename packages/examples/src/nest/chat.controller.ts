import {
  BadRequestException,
  Body,
  ConflictException,
  Controller,
  Headers,
  HttpCode,
  NotFoundException,
  Param,
  Post,
  Req,
  Res,
  StreamableFile,
  UseGuards,
} from '@nestjs/common';
import { DecisionError, RunClaimError, RunConflictError, toServerSentEvents, type ToolLoopResult } from '@toolwright/core';
import { ToolsService } from '@toolwright/nest';
import type { Session } from '../orders/session';
import { SessionGuard, type AuthenticatedRequest } from './session.guard';

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
    // The identity comes from the guard; tools read it as ctx.auth.
    if (accept?.includes('text/event-stream')) return this.streamChat(body.message, request.user);
    const run = await this.tools.run({ prompt: body.message, context: { auth: request.user } });
    return answer(run, response);
  }

  /**
   * The customer's decisions on a paused run: `{ "decisions": { "<toolUseId>": { "approve": true } } }`.
   * Any instance of the app may take it; the guards run again with this request's customer.
   */
  @Post('runs/:id/decisions')
  @HttpCode(200)
  async decide(
    @Param('id') runId: string,
    @Body() body: { decisions?: unknown },
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) response: { status(code: number): unknown },
  ) {
    try {
      const run = await this.tools.resume({ runId, decisions: body?.decisions as never, context: { auth: request.user } });
      return answer(run, response);
    } catch (error) {
      throw httpError(error);
    }
  }

  /**
   * A client that disconnects stops receiving, not the run: it goes on to the end, writes
   * included, as it would for a JSON client that closed the tab mid-request.
   */
  private streamChat(message: string, user: Session): StreamableFile {
    const stream = this.tools.stream({ prompt: message, context: { auth: user } });
    return new StreamableFile(toServerSentEvents(stream), { type: 'text/event-stream' });
  }
}

/** The store's and the decisions' refusals as HTTP answers; anything else stays a 500. */
function httpError(error: unknown): unknown {
  if (error instanceof DecisionError) {
    if (error.problem === 'unknown_run') return new NotFoundException(error.message);
    if (error.problem === 'finished_run') return new ConflictException(error.message);
    return new BadRequestException(error.message);
  }
  if (error instanceof RunClaimError) return error.problem === 'unknown_run' ? new NotFoundException(error.message) : new ConflictException(error.message);
  if (error instanceof RunConflictError) return new ConflictException(error.message);
  return error;
}
