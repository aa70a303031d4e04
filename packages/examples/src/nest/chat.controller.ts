import { BadRequestException, Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ToolsService } from '@toolwright/nest';
import type { Session } from '../orders/session';
import { SessionGuard, type AuthenticatedRequest } from './session.guard';

@Controller('chat')
@UseGuards(SessionGuard)
export class ChatController {
  constructor(private readonly tools: ToolsService<Session>) {}

  /** One question, answered by the loop for the signed-in customer. */
  @Post()
  @HttpCode(200)
  async chat(@Body() body: { message?: unknown }, @Req() request: AuthenticatedRequest) {
    if (typeof body?.message !== 'string' || body.message.length === 0) {
      throw new BadRequestException('send {"message": "<your question>"}');
    }
    // The identity comes from the guard; tools read it as ctx.auth.
    const run = await this.tools.run({ prompt: body.message, context: { auth: request.user } });
    return { text: run.text, stopReason: run.stopReason, turns: run.turns };
  }
}
