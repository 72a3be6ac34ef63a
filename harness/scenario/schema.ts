import { SCENARIO_SHAPE } from './load.js';
import type { Shape } from './shape.js';

/** The file, at the package root, that holds the scenario format as a JSON Schema (`concord/scenario.schema.json`). */
export const SCENARIO_SCHEMA_FILE = 'scenario.schema.json';

type JsonSchema = { [key: string]: unknown };

/**
 * The JSON Schema (draft-07) that accepts what `check` accepts for `shape`: the same keys, required keys,
 * types, enums, patterns and bounds. A non-empty string is one holding a character other than white space.
 */
export function shapeToJsonSchema(shape: Shape): JsonSchema {
  const described = (schema: JsonSchema): JsonSchema =>
    shape.description === undefined ? schema : { description: shape.description, ...schema };
  switch (shape.kind) {
    case 'string': {
      const patterns = [...(shape.pattern ? [shape.pattern.source] : []), ...(shape.nonEmpty ? ['\\S'] : [])];
      if (patterns.length <= 1)
        return described({ type: 'string', ...(patterns.length === 1 ? { pattern: patterns[0] } : {}) });
      return described({ type: 'string', allOf: patterns.map((pattern) => ({ pattern })) });
    }
    case 'number':
      return described({
        type: shape.integer ? 'integer' : 'number',
        ...(shape.min !== undefined ? { minimum: shape.min } : {}),
        ...(shape.max !== undefined ? { maximum: shape.max } : {}),
      });
    case 'enum':
      return described({ type: 'string', enum: [...shape.values] });
    case 'list':
      return described({
        type: 'array',
        items: shapeToJsonSchema(shape.of),
        ...(shape.min ? { minItems: shape.min } : {}),
      });
    case 'map': {
      const fields = Object.entries(shape.fields);
      const required = fields.filter(([, field]) => field.required).map(([key]) => key);
      return described({
        type: 'object',
        properties: Object.fromEntries(fields.map(([key, field]) => [key, shapeToJsonSchema(field.shape)])),
        ...(required.length > 0 ? { required } : {}),
        additionalProperties: false,
      });
    }
    case 'choice':
      return described({
        type: 'object',
        properties: Object.fromEntries(
          Object.entries(shape.options).map(([key, option]) => [key, shapeToJsonSchema(option)]),
        ),
        minProperties: 1,
        maxProperties: 1,
        additionalProperties: false,
      });
    case 'json':
      return described({});
  }
}

/** The scenario format as a JSON Schema, written from the shape the loader checks. */
export function scenarioJsonSchema(): JsonSchema {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'concord scenario',
    ...shapeToJsonSchema(SCENARIO_SHAPE),
  };
}

/** The text of scenario.schema.json, as the build writes it. */
export function scenarioSchemaText(): string {
  return JSON.stringify(scenarioJsonSchema(), null, 2) + '\n';
}
