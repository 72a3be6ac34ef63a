/** The name a program calls the tools on (`tools.name(…)`), unless the backend's runtime binds them under another. */
export const DEFAULT_TOOLS_OBJECT = 'tools';

/** A name an SDK block declares at its top level, where it stands (1-based). */
export interface Declared {
  name: string;
  line: number;
  column: number;
}

/** One way the SDK offers to call a tool: a method, or a listed subscript / quoted name. */
export interface Reach {
  /** As written in the block (a quoted one with its quotes). */
  spelled: string;
  how: 'method' | 'subscript';
  /** The tool name a program writing it would reach; absent when it reaches none (a mangled private name). */
  reaches?: string;
  line: number;
  column: number;
}

/** Declarations that are one name to the language, where the later silently shadows the earlier. */
export interface Collision {
  /** The name they all are, after the language's normalization. */
  key: string;
  declarations: Declared[];
}

export interface SdkNames {
  declared: Declared[];
  reaches: Reach[];
  collisions: Collision[];
  /**
   * The top-level names bound to a value a program could call tools on (TypeScript: variables and namespaces;
   * Python: names bound to an instance of a class, `x: X` or `x = X()`), the tools object among them: what a block
   * that offers no tool binds instead.
   */
  bindings: string[];
  /** The language's own identifier normalization: NFKC for Python, none for TypeScript. */
  normalize(name: string): string;
}

/** Whether a stored value has the shape of `SdkNames` (without its function): a cache entry to trust. */
export function isSdkNames(value: unknown): value is Omit<SdkNames, 'normalize'> {
  if (value === null || typeof value !== 'object') return false;
  const place = (v: Record<string, unknown>) => Number.isSafeInteger(v.line) && Number.isSafeInteger(v.column);
  const isDeclared = (d: Record<string, unknown>) => typeof d?.name === 'string' && place(d);
  const { declared, reaches, collisions, bindings } = value as Record<string, unknown>;
  return (
    Array.isArray(bindings) &&
    bindings.every((b) => typeof b === 'string') &&
    Array.isArray(declared) &&
    declared.every(isDeclared) &&
    Array.isArray(collisions) &&
    collisions.every(
      (c: Record<string, unknown>) =>
        typeof c?.key === 'string' && Array.isArray(c.declarations) && c.declarations.every(isDeclared),
    ) &&
    Array.isArray(reaches) &&
    reaches.every(
      (r: Record<string, unknown>) =>
        typeof r?.spelled === 'string' &&
        (r.how === 'method' || r.how === 'subscript') &&
        (r.reaches === undefined || typeof r.reaches === 'string') &&
        place(r),
    )
  );
}

/** The tools a backend registers, when known (its native tools, the tools a program was given, the names a team gave). */
export interface Registered {
  names: readonly string[];
  /** Whether `names` is every registered tool (then an offered name no tool has is a problem too). */
  complete: boolean;
}
