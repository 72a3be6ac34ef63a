const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `.name` for identifier keys, `["a-b"]` for the rest, so every path reads back unambiguously. */
export function memberPath(parent: string, key: string): string {
  return IDENTIFIER.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}
