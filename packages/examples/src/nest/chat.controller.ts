import { BadRequestException, Body, Controller, Headers, HttpCode, Post, Req, StreamableFile, UseGuards } from '@nestjs/common';
import { toServerSentEvents } from '@toolwright/core';
import { ToolsService } from '@toolwright/nest';
import type { Session } from '../orders/session';
import { SessionGuard, type AuthenticatedRequest } from './session.guard';

@Controller('chat')
@UseGuards(SessionGuard)
export class ChatController {
  constructor(private readonly tools: ToolsService<Session>) {}

  /**
   * One question, answered by the loop for the signed-in customer: JSON, or the loop's events as
   * Server-Sent Events when the client sends `Accept: text/event-stream`.
   */
  @Post()
  @HttpCode(200)
  async chat(@Body() body: { message?: unknown }, @Req() request: AuthenticatedRequest, @Headers('accept') accept?: string) {
    if (typeof body?.message !== 'string' || body.message.length === 0) {
      throw new BadRequestException('send {"message": "<your question>"}');
    }
    // The identity comes from the guard; tools read it as ctx.auth.
    if (accept?.includes('text/event-stream')) return this.streamChat(body.message, request.user);
    const run = await this.tools.run({ prompt: body.message, context: { auth: request.user } });
    return { text: run.text, stopReason: run.stopReason, turns: run.turns };
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
