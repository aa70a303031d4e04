import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { defineToolManifest } from '@toolwright/core';
import {
  checkTranscript,
  text,
  toolUse,
  turn,
  type ScriptedRequest,
  type ScriptedServer,
  type ScriptedTurn,
} from '@toolwright/core/testing';
import { OrdersRepository } from '../src/orders/orders.repository';
import type { AppOptions } from '../src/nest/app.module';
import { toolManifest } from '../src/tools.generated';
import { closeExampleApps, startExampleApp } from './fixtures/example-app';

let server: ScriptedServer | undefined;
let app: INestApplication | undefined;

afterEach(async () => {
  await closeExampleApps();
  app = server = undefined;
});

async function startApp(turns: ScriptedTurn[], manifest = toolManifest, options: Partial<AppOptions> = {}): Promise<string> {
  let url: string;
  ({ url, app, server } = await startExampleApp(turns, { manifest, ...options }));
  return url;
}

async function chat(url: string, message: string, customerId?: string) {
  const response = await fetch(`${url}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(customerId && { 'x-customer-id': customerId }) },
    body: JSON.stringify({ message }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The tool results the loop sent back, as the scripted model received them, without the loop's moving cache breakpoint. */
function lastToolResults(request: ScriptedRequest) {
  const last = request.body.messages.at(-1)!;
  expect(last.role).toBe('user');
  const results = last.content as Array<{ tool_use_id: string; content?: string; is_error?: boolean; cache_control?: unknown }>;
  expect(results.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
  return results.map(({ cache_control, ...result }) => result);
}

describe('the NestJS example app over real HTTP', () => {
  it('runs a tool from a provider with an injected repository for the signed-in customer', async () => {
    const url = await startApp([
      turn('tool_use', toolUse('toolu_01', 'buscar_pedido', { numero: 'A-1001' })),
      (request) => {
        expect(lastToolResults(request)).toEqual([
          { type: 'tool_result', tool_use_id: 'toolu_01', content: '{"status":"enviado","previsao":"2026-10-20"}' },
        ]);
        return turn('end_turn', text('O pedido A-1001 foi enviado e chega até 20/10/2026.'));
      },
    ]);

    const { status, body } = await chat(url, 'Onde está o pedido A-1001?', 'C-ana');

    expect(status).toBe(200);
    expect(body).toEqual({ text: 'O pedido A-1001 foi enviado e chega até 20/10/2026.', stopReason: 'end_turn', turns: 2 });
    expect(checkTranscript(server!.requests[1].body.messages)).toEqual([]);
  });

  it("ctx.auth is the request's user: a customer cancels their own order (no approval asked)", async () => {
    const url = await startApp(
      [
      turn('tool_use', toolUse('toolu_02', 'cancelar_pedido', { numero: 'A-1001' })),
      (request) => {
        const [result] = lastToolResults(request);
        expect(result.is_error).toBeUndefined();
        expect(JSON.parse(result.content!)).toEqual({ numero: 'A-1001', status: 'cancelado', canceladoPor: 'C-ana' });
        return turn('end_turn', text('Pedido A-1001 cancelado.'));
      },
      ],
      toolManifest,
      { approval: 'none' },
    );

    expect((await chat(url, 'Cancele o A-1001', 'C-ana')).body.text).toBe('Pedido A-1001 cancelado.');
    expect((await app!.get(OrdersRepository).find('A-1001'))?.status).toBe('cancelado');
  });

  it("cancelling another customer's order is refused, whatever the input says", async () => {
    const url = await startApp([
      turn('tool_use', toolUse('toolu_03', 'cancelar_pedido', { numero: 'A-1002' })),
      (request) => {
        expect(lastToolResults(request)).toEqual([
          { type: 'tool_result', tool_use_id: 'toolu_03', is_error: true, content: 'Not allowed: cancelar_pedido refused this call.' },
        ]);
        return turn('end_turn', text('Esse pedido não é seu.'));
      },
    ]);

    expect((await chat(url, 'Cancele o A-1002', 'C-ana')).body.text).toBe('Esse pedido não é seu.');
    expect((await app!.get(OrdersRepository).find('A-1002'))?.status).toBe('entregue');
  });

  it('refuses a request without a signed-in customer before the model is called', async () => {
    const url = await startApp([]);
    const { status, body } = await chat(url, 'Oi');
    expect(status).toBe(401);
    expect(body.message).toBe('send the x-customer-id header (C-<name>)');
    expect(server!.requests).toEqual([]);
  });

  it('a @Tool method missing from the manifest fails start-up with the codegen message', async () => {
    const stale = defineToolManifest(toolManifest.entries.filter((e) => e.method !== 'cancelarPedido'));
    await expect(startApp([], stale)).rejects.toThrow(
      /OrdersTools\.cancelarPedido has @Tool but no manifest entry[\s\S]*Run `tools-codegen` to regenerate the manifest/,
    );
  });
});
