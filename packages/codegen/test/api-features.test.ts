import * as path from 'node:path';
import { FIXTURES, runFixture } from './support/fixtures';

const { result } = runFixture('features');
const file = path.join(FIXTURES, 'features', 'src', 'features.tools.ts');
const definition = (name: string) => result.tools.find((t) => t.name === name)?.definition;

describe('Claude API features from @Tool options', () => {
  it('emits allowed_callers, defer_loading and eager_input_streaming next to strict', () => {
    expect(definition('consultar_frete')).toMatchObject({ defer_loading: true, allowed_callers: ['direct', 'code_execution_20250825'] });
    expect(definition('emitir_nota')).toMatchObject({ defer_loading: true, eager_input_streaming: true, strict: true });
    expect(definition('listar_pedidos')).not.toHaveProperty('allowed_callers');
  });

  it('folds @keywords into the description, which is what the tool search reads', () => {
    expect(definition('consultar_frete')?.description).toBe(
      'Calcula o prazo de entrega para um CEP. Use quando o cliente perguntar quanto tempo a entrega leva. Não reserva transportadora. Keywords: frete, prazo, CEP.',
    );
  });

  it('warns, at file:line:col, about a deferred tool whose description gives the search nothing to match', () => {
    const deferred = result.diagnostics.filter((d) => d.message.startsWith('deferred tool'));
    expect(deferred).toEqual([
      expect.objectContaining({ file, line: 20, column: 3, severity: 'warning', path: 'FeatureTools.emitirNota', message: expect.stringContaining('add "@keywords <word>, <word>"') }),
    ]);
  });

  it('refuses a caller the API does not know', () => {
    expect(result.diagnostics).toContainEqual(
      expect.objectContaining({ file, line: 29, column: 3, severity: 'error', path: 'FeatureTools.listarPedidos', message: expect.stringContaining("@Tool callers must be a non-empty list of 'direct', 'code_execution_20250825'") }),
    );
  });
});
