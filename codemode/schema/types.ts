/**
 * The JSON Schema keywords tools are usually written with. Schemas may hold any other keyword as well:
 * `lowerSchema` reads them all and degrades only the parts no type can express.
 */

export type SchemaTypeName = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';
export type SchemaScalar = string | number | boolean | null;

export interface JsonSchema {
  type?: SchemaTypeName;
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  enum?: SchemaScalar[];
  const?: SchemaScalar;
  description?: string;
  title?: string;
  default?: unknown;
  examples?: unknown[];
}

/** A place in a schema, by JSON path (`$.properties.a.items`), and what is wrong or lost there. */
export interface SchemaViolation {
  path: string;
  message: string;
}
