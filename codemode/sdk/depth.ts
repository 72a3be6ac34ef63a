/**
 * Most objects written inside one another in a tool's types, in either language (TypeScript counts arrays too):
 * one nested deeper is `unknown` (TypeScript) or `dict[str, Any]` (Python). It keeps the text small and linear
 * whatever the schema's depth, keeps compilers (which recurse over nested types) well inside their stacks, and
 * gives both SDKs of a tool the same reach. A definition named by `$ref` starts again from the top.
 */
export const MAX_TYPE_DEPTH = 64;
