/** The JSON-schema subset concord understands. Anything outside it degrades to an unknown type. */

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

/** One rule a schema breaks, with the JSON path of the offending node (`$.properties.a.items`). */
export interface SchemaViolation {
  path: string;
  message: string;
}
