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
import { DecisionError, RunClaimError, RunConflictError, toServerSentEvents, type ToolLoopResult, type ToolStream } from '@toolwright/core';
import { ToolsService } from '@toolwright/nest';
import { SessionGuard, type AuthenticatedRequest, type Session } from './session.guard.js';

interface StatusResponse {
  status(code: number): unknown;
}

@Controller()
@UseGuards(SessionGuard)
export class ChatController {
  constructor(private readonly tools: ToolsService<Session>) {}

  /**
   * `{"message": "..."}`, answered by the tools loop for the signed-in user: JSON (202 with the
   * calls to decide when a write waits for approval), or the loop's events as Server-Sent Events
   * when the client sends `Accept: text/event-stream`.
   */
  @Post('chat')
  @HttpCode(200)
  async chat(
    @Body() body: { message?: unknown },
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) response: StatusResponse,
    @Headers('accept') accept?: string,
  ) {
    if (typeof body?.message !== 'string' || body.message.length === 0) {
      throw new BadRequestException('send {"message": "<your question>"}');
    }
    const options = { prompt: body.message, context: { auth: request.user }, owner: request.user.userId };
    if (wantsEvents(accept)) return events(this.tools.stream(options));
    return answer(await this.tools.run(options), response);
  }

  /**
   * The user's decisions on a paused run: `{"decisions": {"<toolUseId>": {"approve": true}}}`
   * (or `{"approve": false, "reason": "..."}`). Only the user who started the run may decide it.
   */
  @Post('runs/:id/decisions')
  @HttpCode(200)
  async decide(
    @Param('id') runId: string,
    @Body() body: { decisions?: unknown },
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) response: StatusResponse,
    @Headers('accept') accept?: string,
  ) {
    const options = { runId, decisions: body?.decisions as never, context: { auth: request.user }, owner: request.user.userId };
    try {
      if (wantsEvents(accept)) return events(await this.tools.streamResume(options));
      return answer(await this.tools.resume(options), response);
    } catch (error) {
      throw httpError(error);
    }
  }
}

/** 200 with the answer when the run ended; 202 with what to decide when it paused for approval. */
function answer(run: ToolLoopResult, response: StatusResponse) {
  if (run.stopReason === 'approval_required') {
    response.status(202);
    return { runId: run.runId, pending: run.pending, text: run.text };
  }
  return { text: run.text, stopReason: run.stopReason, turns: run.turns };
}

function wantsEvents(accept: string | undefined): boolean {
  return accept?.includes('text/event-stream') ?? false;
}

/** A client that disconnects stops receiving, not the run, which goes on to its end. */
function events(stream: ToolStream): StreamableFile {
  return new StreamableFile(toServerSentEvents(stream), { type: 'text/event-stream' });
}

/**
 * The decisions' and the store's refusals as HTTP answers. Another user's run is answered exactly
 * as an unknown one, so a guessed run id reveals nothing.
 */
function httpError(error: unknown): unknown {
  if (error instanceof DecisionError) {
    if (error.problem === 'unknown_run' || error.problem === 'not_owner') return notFound(error.runId);
    if (error.problem === 'finished_run') return new ConflictException(error.message);
    return new BadRequestException(error.message);
  }
  if (error instanceof RunClaimError) return error.problem === 'unknown_run' ? notFound(error.runId) : new ConflictException(error.message);
  if (error instanceof RunConflictError) return new ConflictException(error.message);
  return error;
}

function notFound(runId: string): NotFoundException {
  return new NotFoundException(`There is no run ${JSON.stringify(runId)} for this user.`);
}
