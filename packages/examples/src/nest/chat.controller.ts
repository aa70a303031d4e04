import {
  BadRequestException,
  Body,
  ConflictException,
  Controller,
  HttpCode,
  NotFoundException,
  Param,
  Post,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { DecisionError, RunClaimError, RunConflictError, type ToolLoopResult } from '@toolwright/core';
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

  /** One question, answered by the loop for the signed-in customer; 202 when a write waits for approval. */
  @Post('chat')
  @HttpCode(200)
  async chat(@Body() body: { message?: unknown }, @Req() request: AuthenticatedRequest, @Res({ passthrough: true }) response: { status(code: number): unknown }) {
    if (typeof body?.message !== 'string' || body.message.length === 0) {
      throw new BadRequestException('send {"message": "<your question>"}');
    }
    // The identity comes from the guard; tools read it as ctx.auth.
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
