import { describe, expect, it } from 'vitest';
import { stripTypes } from './strip-types.js';

async function strip(program: string): Promise<string> {
  const result = await stripTypes(program, ['tools', 'ToolCallError']);
  if ('error' in result) throw new Error(result.error.message);
  return result.code;
}

async function refusal(program: string): Promise<string> {
  const result = await stripTypes(program, ['tools', 'ToolCallError']);
  if (!('error' in result)) throw new Error(`expected a refusal, got code:\n${result.code}`);
  expect(result.error.name).toBe('SyntaxError');
  return result.error.message;
}

describe('stripTypes', () => {
  it('erases annotations, interfaces, type aliases, `as` and `satisfies`', async () => {
    const code = await strip(
      [
        'interface Hit { id: string }',
        'type Hits = Hit[];',
        'declare const ambient: number;',
        'namespace Types { export type T = string }',
        'declare enum Ambient { A }',
        'const hits: Hits = (await tools.search({ q: "x" })) as Hits;',
        'const first = hits[0] satisfies Hit | undefined;',
        'function pick<T>(items: T[]): T | undefined { return items[0]; }',
        'return pick<Hit>(hits)?.id ?? first;',
      ].join('\n'),
    );
    expect(code).not.toMatch(/interface|Hits|satisfies|<T>|: T\[\]/);
    expect(code).toMatch(/^"use strict";\s*\(async function \(tools, ToolCallError\) \{/);
  });

  it.each([
    ['enum Color { Red }', /line 2: `enum` declarations generate code/],
    ['const enum Color { Red }', /`enum`/],
    ['namespace Values { export const x = 1 }', /`namespace` declarations holding values/],
    ['class Point { constructor(private x: number) {} }', /parameter properties/],
    ['import fs = require("fs");', /`import … =` aliases/],
  ])('refuses non-erasable syntax: %s', async (line, message) => {
    const text = await refusal(`const before = 1;\n${line}\nreturn before;`);
    expect(text).toMatch(message);
    expect(text).toMatch(/only TypeScript syntax that can be erased is supported/);
  });

  it('runs programs in strict mode', async () => {
    expect(await strip('undeclared = 1;')).toMatch(/^"use strict";/);
  });

  it('reports syntax errors with the program line', async () => {
    expect(await refusal('const a = 1;\nreturn (a +;')).toMatch(/^program\.ts line 2: /);
  });

  it('refuses a program that closes the function wrapper early', async () => {
    expect(await refusal('}); globalThis.escaped = 1; (async function () {')).toMatch(/not a valid function body/);
  });

  it('refuses dynamic import, naming the line', async () => {
    expect(await refusal('const x = 1;\nconst fs = await import("node:fs");')).toBe(
      'program.ts line 2: `import()` is not available: a program reaches the outside only through its bindings',
    );
  });

  it('runs a program without TypeScript syntax exactly as written', async () => {
    const program = 'const list = [1, 2];   // spacing and comments kept\nreturn list.map((n) => n * 2);';
    expect(await strip(program)).toBe(`"use strict";\n(async function (tools, ToolCallError) {\n${program}\n})`);
  });

  it.each([
    ['an annotation', 'const n: number = 1;\nreturn n;'],
    ['a type argument', 'const m = new Map<string, number>();\nreturn m.size;'],
    ['a non-null assertion', 'const a = [1];\nreturn a[0]!;'],
    ['an accessibility modifier', 'class A { private x = 1; get() { return this.x; } }\nreturn new A().get();'],
    ['a definite assignment', 'let n!: number;\nn = 1;\nreturn n;'],
  ])('erases %s through the compiler', async (_what, program) => {
    const code = await strip(program);
    expect(code).not.toContain(program);
    expect(code).not.toMatch(/: number|<string|!;|private|!:/);
  });
});
