import { ToolError } from '../../contract/tool-error.js';
import { fixturePlugin, objectArgs } from './define.js';

/** A payment tool that refuses amounts over its limit, so programs can catch the failure. */

const LIMIT = 500;

export default fixturePlugin('fixture-payments', [
  {
    name: 'charge_card',
    description: `Charges a card; amounts over ${LIMIT} are declined.`,
    parameters: {
      type: 'object',
      properties: { card: { type: 'string' }, amount: { type: 'number', description: 'In euros.' } },
      required: ['card', 'amount'],
      additionalProperties: false,
    },
    output: {
      type: 'object',
      properties: { receipt: { type: 'string' }, amount: { type: 'number' } },
      required: ['receipt', 'amount'],
      additionalProperties: false,
    },
    async execute(args) {
      const { card, amount } = objectArgs('charge_card', args);
      if (typeof card !== 'string' || typeof amount !== 'number')
        throw new Error('charge_card: card must be a string and amount a number');
      if (amount > LIMIT)
        throw new ToolError(`declined: ${amount} is over the limit of ${LIMIT}`, {
          code: 'card_declined',
          data: { limit: LIMIT, amount },
        });
      return { receipt: `R-${card.slice(-4)}-${Math.round(amount * 100)}`, amount };
    },
  },
]);
