import { Param, Tool } from '@toolwright/core';

export class FeatureTools {
  /**
   * Calcula o prazo de entrega para um CEP. Use quando o cliente perguntar quanto tempo a entrega leva.
   * Não reserva transportadora.
   * @keywords frete, prazo, CEP
   * @param cep CEP no formato 01001-000.
   */
  @Tool({ name: 'consultar_frete', effect: 'read', deferLoading: true, callers: ['direct', 'code_execution_20250825'] })
  consultarFrete(@Param() cep: string) {
    return { cep, dias: 5 };
  }

  /**
   * Emite nota. Emite a nota. Nota emitida.
   * @param texto The note's text.
   */
  @Tool({ name: 'emitir_nota', deferLoading: true, eagerInputStreaming: true, strict: true })
  emitirNota(@Param() texto: string) {
    return { texto };
  }

  /**
   * Lists the orders of a customer. Only code running in code execution calls it. It returns numbers only.
   * @param cliente The customer id, like c-1.
   */
  // @ts-expect-error: a caller the API does not know, which tools-codegen reports
  @Tool({ name: 'listar_pedidos', effect: 'read', callers: ['code_execution'] })
  listarPedidos(@Param() cliente: string) {
    return [cliente];
  }
}
