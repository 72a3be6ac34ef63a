import type { SchemaScalar, SchemaTypeName, SchemaViolation } from './types.js';

/**
 * The one form both SDK renderers read: real JSON Schema lowered to shapes a type system can hold. A node
 * is exactly one of: `{}` (any value), a primitive `type`, an `enum` or `const` of scalars, a `oneOf` union,
 * an array (`items`, or a tuple: `prefixItems`, open for more `items` unless `closed`), an object
 * (`properties`, `required`, `additionalProperties`), or a `$ref` naming one of the root's definitions.
 * `description` is the text a reader should see: the schema's own words and the constraints worth knowing.
 */
export interface CoreSchema {
  type?: SchemaTypeName;
  oneOf?: CoreSchema[];
  properties?: Record<string, CoreSchema>;
  required?: string[];
  additionalProperties?: boolean | CoreSchema;
  items?: CoreSchema;
  prefixItems?: CoreSchema[];
  closed?: boolean;
  enum?: SchemaScalar[];
  const?: SchemaScalar;
  $ref?: string;
  description?: string;
  /**
   * An object's title when it is all the object says of itself (as generators from classes write the class
   * name): read as its doc, but a name, not a difference: two objects with the same fields are one type
   * whatever they are titled.
   */
  title?: string;
  /** The name a named type for this node takes (a definition written in place keeps its own name). */
  name?: string;
}

/** A definition a lowered root refers to by `$ref`. */
export interface CoreDefinition {
  /** The JSON pointer it was reached by (`#/$defs/Pet`, `#`). */
  key: string;
  /** What to name its type after: the definition's own name, else its title. */
  name: string;
  schema: CoreSchema;
  /** It reaches itself through its own fields: other text must name it as a forward reference. */
  recursive: boolean;
}

export interface LoweredSchema {
  schema: CoreSchema;
  /** Every definition reached from the root, in the order first reached. */
  definitions: ReadonlyMap<string, CoreDefinition>;
  /** Each place that could not be expressed and became `{}` (or lost a part), with its JSON path. */
  degradations: SchemaViolation[];
}
