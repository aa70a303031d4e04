import { Body, Controller, Post } from '@nestjs/common';
import { ToolsService } from '@toolwright/nest';

@Controller('chat')
export class ChatController {
  constructor(private readonly tools: ToolsService) {}

  @Post()
  async chat(@Body() body: { prompt: string }) {
    const run = await this.tools.run({ prompt: body.prompt });
    return { text: run.text, stopReason: run.stopReason, messages: run.messages };
  }
}
