import type { JsonValue } from '../../runtimes/seam/types.js';
import { fixturePlugin, objectArgs } from './define.js';

/** Read-only weather tools whose outputs nest objects in lists in objects. */

const CITIES: Record<string, { country: string; base: number }> = {
  Lisbon: { country: 'PT', base: 19 },
  Oslo: { country: 'NO', base: 4 },
  Nairobi: { country: 'KE', base: 24 },
};

const SKIES = ['clear', 'cloudy', 'showers'] as const;

function forecast(city: string, days: number): JsonValue {
  const known = CITIES[city];
  if (!known)
    throw new Error(`get_forecast: unknown city ${JSON.stringify(city)} (known: ${Object.keys(CITIES).join(', ')})`);
  return {
    city,
    country: known.country,
    days: Array.from({ length: days }, (_, i) => ({
      date: `2024-05-${String(i + 1).padStart(2, '0')}`,
      temperature: { high: known.base + i, low: known.base - 6 + i },
      sky: { summary: SKIES[i % SKIES.length]!, rainChance: (i * 35) % 100 },
    })),
  };
}

const temperature = {
  type: 'object',
  properties: {
    high: { type: 'number', description: 'Degrees Celsius.' },
    low: { type: 'number', description: 'Degrees Celsius.' },
  },
  required: ['high', 'low'],
  additionalProperties: false,
};

export default fixturePlugin('fixture-weather', [
  {
    name: 'get_forecast',
    description: 'Daily forecast for one city, one entry per day starting today.',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name, as listed by list_cities.' },
        days: { type: 'integer', description: 'How many days, 1 to 7.' },
      },
      required: ['city', 'days'],
      additionalProperties: false,
    },
    output: {
      type: 'object',
      properties: {
        city: { type: 'string' },
        country: { type: 'string' },
        days: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              date: { type: 'string' },
              temperature,
              sky: {
                type: 'object',
                properties: { summary: { enum: ['clear', 'cloudy', 'showers'] }, rainChance: { type: 'integer' } },
                required: ['summary', 'rainChance'],
                additionalProperties: false,
              },
            },
            required: ['date', 'temperature', 'sky'],
            additionalProperties: false,
          },
        },
      },
      required: ['city', 'country', 'days'],
      additionalProperties: false,
    },
    async execute(args) {
      const { city, days } = objectArgs('get_forecast', args);
      if (typeof city !== 'string') throw new Error('get_forecast: city must be a string');
      if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > 7)
        throw new Error('get_forecast: days must be a whole number from 1 to 7');
      return forecast(city, days);
    },
  },
  {
    name: 'list_cities',
    description: 'Every city with a forecast.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    output: {
      type: 'object',
      properties: {
        cities: {
          type: 'array',
          items: {
            type: 'object',
            properties: { name: { type: 'string' }, country: { type: 'string' } },
            required: ['name', 'country'],
            additionalProperties: false,
          },
        },
      },
      required: ['cities'],
      additionalProperties: false,
    },
    async execute() {
      return { cities: Object.entries(CITIES).map(([name, { country }]) => ({ name, country })) };
    },
  },
]);
