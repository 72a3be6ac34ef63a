import type { JsonSchema, SchemaViolation } from './types.js';

/**
 * Every violation of the subset in a whole schema root, collected in one walk.
 * An empty list means the root may be trusted as a `JsonSchema` from here on.
 */
export function validateSchema(root: unknown): SchemaViolation[] {
  void root;
  throw new Error('validateSchema: not built yet');
}

export function isValidSchema(root: unknown): root is JsonSchema {
  return validateSchema(root).length === 0;
}
