// typia's validator for `buscar_pedido`, used the way a typia user (or Agentica, typia's agent
// framework) handles a tool call: validate, call the method, send JSON back; on a failure, send
// `LlmJson.stringify(failure)`, the annotated JSON typia documents as the model's feedback.
//
// The validator is typia's own output, committed: typia 12 is the last release whose transform
// runs on the TypeScript compiler this repo uses. From 13 on it runs in Go under `ttsc`, which
// builds the plugin from source on first use and fetches its Go modules from proxy.golang.org,
// so it cannot run offline here (and `ttsc` wants Node ≥ 22.15). After changing the template,
// regenerate from bench/:
//   node_modules/.bin/typia generate --input src/rivals/typia-template --output src/rivals/typia-generated --project tsconfig.json
import { LlmJson } from '@typia/utils';
import type { OrderLookupTools } from '../fixtures/order-lookup.tools';
import { validateBuscarPedidoInput } from './typia-generated/buscar-pedido-input';
import { TOOL_CALL_ID, type RivalPath } from './rival-path';

const TYPIA_LABEL = 'typia createValidate + method call (as Agentica)';

export function typiaValidatePath(tools: OrderLookupTools): RivalPath {
  return {
    label: TYPIA_LABEL,
    call: async (input) => {
      const checked = validateBuscarPedidoInput(input);
      if (!checked.success) return { type: 'tool_result', tool_use_id: TOOL_CALL_ID, content: LlmJson.stringify(checked), is_error: true };
      const output = await tools.buscarPedido(checked.data.numero);
      return { type: 'tool_result', tool_use_id: TOOL_CALL_ID, content: JSON.stringify(output) };
    },
  };
}
