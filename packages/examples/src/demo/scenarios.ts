import { apiError, text, toolUse, turn, type ScriptedTurn } from '@toolwright/core/testing';
import type { OrdersRepository } from '../orders/orders.repository';
import type { Session } from '../orders/session';

export interface Scenario {
  title: string;
  prompt: string;
  /** The signed-in customer: reaches the tools as `ctx.auth`. */
  auth: Session;
  /** The model's turns when no API key is set. Against the real API the model decides. */
  script: ScriptedTurn[];
  maxTurns?: number;
  /** Puts the repository in the state the scenario needs (a network failure, ...). */
  setup?: (repo: OrdersRepository) => void;
}

const ana: Session = { customerId: 'C-ana' };
const bruno: Session = { customerId: 'C-bruno' };
const buscar = (id: string, numero: string) => toolUse(id, 'buscar_pedido', { numero });
const cancelar = (id: string, numero: string) => toolUse(id, 'cancelar_pedido', { numero });

export const scenarios: Scenario[] = [
  {
    title: 'cenário 1: uma ferramenta, uma volta',
    prompt: 'Onde está o pedido A-1001?',
    auth: ana,
    script: [
      turn('tool_use', text('Vou consultar o pedido.'), buscar('toolu_01', 'A-1001')),
      turn('end_turn', text('O pedido A-1001 foi enviado e chega até 20/10/2026.')),
    ],
  },
  {
    title: 'cenário 2: entrada inválida, erro devolvido ao modelo e nova tentativa',
    prompt: 'O pedido 1002 chegou?',
    auth: bruno,
    script: [
      turn('tool_use', buscar('toolu_02', '1002')),
      turn('tool_use', buscar('toolu_03', 'A-1002')),
      turn('end_turn', text('O pedido A-1002 já foi entregue.')),
    ],
  },
  {
    title: 'cenário 3: duas leituras em paralelo na mesma resposta',
    prompt: 'Como estão os pedidos A-1001 e A-1002?',
    auth: ana,
    script: [
      turn('tool_use', buscar('toolu_04a', 'A-1001'), buscar('toolu_04b', 'A-1002')),
      turn('end_turn', text('O A-1001 foi enviado e o A-1002 já foi entregue.')),
    ],
  },
  {
    title: 'cenário 4: permissão vem da sessão, não da entrada',
    prompt: 'Cancele o pedido A-1002.',
    auth: ana,
    script: [
      turn('tool_use', cancelar('toolu_05', 'A-1002')),
      turn('end_turn', text('Não posso cancelar o A-1002: ele não pertence à sua conta.')),
    ],
  },
  {
    title: 'cenário 5: uma escrita falha e o resto do lote não roda',
    prompt: 'Cancele o A-1002 e depois me diga como ele está.',
    auth: bruno,
    script: [
      turn('tool_use', cancelar('toolu_06a', 'A-1002'), buscar('toolu_06b', 'A-1002')),
      turn('end_turn', text('O A-1002 já foi entregue, então não pode ser cancelado.')),
    ],
  },
  {
    title: 'cenário 6: falha de rede dentro de buscar_pedido (exercício 3)',
    prompt: 'Onde está o pedido A-1001?',
    auth: ana,
    setup: (repo) => {
      repo.networkDown = true;
    },
    script: [
      apiError(529, { message: 'Overloaded' }),
      turn('tool_use', buscar('toolu_07', 'A-1001')),
      turn('end_turn', text('O sistema de pedidos está fora do ar agora; tente de novo em alguns minutos.')),
    ],
  },
  {
    title: 'cenário 7: limite de voltas atingido',
    prompt: 'Fique consultando o A-1001 até ele ser entregue.',
    auth: ana,
    maxTurns: 2,
    script: [
      turn('tool_use', buscar('toolu_08', 'A-1001')),
      turn('tool_use', buscar('toolu_09', 'A-1001')),
    ],
  },
];
