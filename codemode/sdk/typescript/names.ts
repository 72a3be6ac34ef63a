/** Longest base a tool name contributes to its type names; counters keep truncated names apart. */
export const MAX_BASE_LENGTH = 64;

/**
 * The PascalCase base of a tool's type names: ASCII letters and digits only (accents are stripped after
 * NFKD, other characters split words), so the name is an identifier on any compiler. A base that would
 * start with a digit, or be empty, gets a `Tool` prefix.
 */
export function pascalBase(toolName: string): string {
  const words = toolName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .split(/[^A-Za-z0-9]+/);
  const parts: string[] = [];
  for (const word of words) {
    if (word !== '') parts.push(word[0]!.toUpperCase() + word.slice(1));
  }
  const joined = parts.join('');
  const base = /^[A-Za-z]/.test(joined) ? joined : `Tool${joined}`;
  return base.slice(0, MAX_BASE_LENGTH);
}

/**
 * Hands out distinct bases in call order: the first tool keeps its base, later ones that derive the same
 * base get `2`, `3`, … appended (skipping any already taken). Callers go in sorted tool order, so the
 * result does not depend on input order.
 */
export class BaseNamer {
  private readonly taken = new Set<string>();
  private readonly nextCounter = new Map<string, number>();

  claim(toolName: string): string {
    const base = pascalBase(toolName);
    if (!this.taken.has(base)) {
      this.taken.add(base);
      return base;
    }
    let counter = this.nextCounter.get(base) ?? 2;
    while (this.taken.has(`${base}${counter}`)) counter++;
    this.nextCounter.set(base, counter + 1);
    const name = `${base}${counter}`;
    this.taken.add(name);
    return name;
  }
}
