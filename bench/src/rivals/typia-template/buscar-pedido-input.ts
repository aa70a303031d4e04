// typia's template for `buscar_pedido`'s input: `typia generate` turns it into
// ../typia-generated/buscar-pedido-input.ts (see typia-validate.ts for the command). Compiled with
// the rest of bench/ but never loaded: without typia's transform, createValidate throws.
import typia, { tags } from 'typia';

export interface BuscarPedidoInput {
  /** Número do pedido no formato A-1234. */
  numero: string & tags.Pattern<'^A-\\d{4}$'>;
}

export const validateBuscarPedidoInput = typia.createValidate<BuscarPedidoInput>();
