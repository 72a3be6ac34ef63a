import { createRequire } from 'node:module';
import type TypeScript from 'typescript';

let loaded: typeof TypeScript | undefined;

/**
 * The TypeScript compiler, loaded on first use (it is large: what does not need it never pays for it) and
 * through `require`: imported as an ES module, Node would also scan its 9 MB of CommonJS for named
 * exports and guess its module format, which doubles the cost of loading it.
 */
export function typescript(): typeof TypeScript {
  loaded ??= createRequire(import.meta.url)('typescript') as typeof TypeScript;
  return loaded;
}

/**
 * The errors the parser met in `source`: the compiler keeps them on the file it returns, under a name its public
 * types do not list.
 */
export function parseErrors(source: TypeScript.SourceFile): readonly TypeScript.DiagnosticWithLocation[] {
  return (source as { parseDiagnostics?: readonly TypeScript.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
}

let version: string | undefined;

/** The installed compiler's version, read without loading the compiler: what it derives is keyed by it. */
export function typescriptVersion(): string {
  version ??= (createRequire(import.meta.url)('typescript/package.json') as { version: string }).version;
  return version;
}

/**
 * Whether `error` is the compiler running out of stack: its parser and checker recurse once per nested node, so a
 * text that nests a few hundred types or thousands of brackets deep (`{ a: { a: … } }`) is more than they can read.
 */
export function compilerOutOfStack(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}
