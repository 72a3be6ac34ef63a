import { describe, expect, it } from 'vitest';
import { readSdkSection } from '../../contract/sdk-section.js';
import { holdsOnlyDeclarations, joinedDeclarationFences, joinedPlace } from './declaration-fences.js';

const fence = (info: string, ...lines: string[]) => [`\`\`\`${info}`, ...lines, '```'].join('\n');

/** A code tool's description as some Python renderers write it: an example program, then types, then functions. */
const DESCRIPTION = [
  'Run a Python snippet. Its last expression is what the call returns, for instance:',
  '',
  fence('python', 'total = 1 + 1', 'total'),
  '',
  'Call these functions with keyword arguments; await them.',
  '',
  fence('python', 'class Forecast(TypedDict):', '    city: str', '', '', 'Unit = Literal["c", "f"]', ''),
  '',
  fence('python', 'async def forecast(*, city: str, unit: Unit = "c") -> Forecast:', '    """Tomorrow."""', '    ...'),
  '',
  'Keep snippets short.',
].join('\n');

describe('a fence that only declares', () => {
  it('is Python of classes, functions, aliases, imports, docstrings and `...`, and nothing that runs', () => {
    const declares = [
      'from typing import Any\nimport json\n"""The tools."""\n...\n# a comment\n',
      'class A(TypedDict):\n    x: int\n\nB = Literal["b"]\nc: int\ntools: Tools\n',
      'Movie = TypedDict("Movie", {"title": str})\nT = typing.TypeVar("T")\nId = NewType("Id", str)\n',
      '@overload\nasync def f(*, a: int) -> A: ...\ndef g():\n    pass\n',
    ];
    for (const code of declares) expect(holdsOnlyDeclarations('python', code), code).toBe(true);
    const runs = [
      'total = 1 + 1\ntotal\n',
      'found = await tools.search({"q": "tea"})\n',
      'found = search(q="tea")\n',
      'await f(a=1)\n',
      'print("hi")\n',
      'if x:\n    pass\n',
      'def f(:\n',
      '# only a comment\n',
      '',
    ];
    for (const code of runs) expect(holdsOnlyDeclarations('python', code), code).toBe(false);
  });

  it('is TypeScript of types, interfaces and `declare`d values, and nothing that runs', () => {
    const declares = [
      'type A = { x: number };\ninterface B { y: string }\n',
      'declare const tools: { f(a: A): Promise<B> };\ndeclare function g(): void;\ndeclare namespace N {}\n',
      'import type { X } from "x";\nexport {};\n',
    ];
    for (const code of declares) expect(holdsOnlyDeclarations('typescript', code), code).toBe(true);
    const runs = [
      'const total = await tools.f({ x: 1 });\n',
      'return total;\n',
      'function g() { return 1; }\n',
      'type A = {\n',
      '// only a comment\n;\n',
    ];
    for (const code of runs) expect(holdsOnlyDeclarations('typescript', code), code).toBe(false);
  });
});

describe('declarations in several fences beside examples', () => {
  it('are one SDK block where the first stood, the examples kept as prose without their language', () => {
    const joined = joinedDeclarationFences(DESCRIPTION)!;
    expect(joined.lines).toEqual([10, 19]);
    const read = readSdkSection(joined.section);
    expect(read.block?.body).toBe(
      'class Forecast(TypedDict):\n    city: str\n\n\nUnit = Literal["c", "f"]\n\n\n' +
        'async def forecast(*, city: str, unit: Unit = "c") -> Forecast:\n    """Tomorrow."""\n    ...\n',
    );
    expect(read.block?.before).toContain('```\ntotal = 1 + 1\ntotal\n```\n');
    expect(read.block?.after).toBe('\n\nKeep snippets short.');
    expect(joinedPlace(joined.lines)).toBe(' (the declarations of its fences at lines 10 and 19, joined)');
  });

  it('is the one declaring fence when the other named fences are examples', () => {
    const text = `${fence('ts', 'declare const tools: { f(): Promise<void> };')}\n\n${fence('ts', 'await tools.f();')}\n`;
    const joined = joinedDeclarationFences(text)!;
    expect(joined.lines).toEqual([1]);
    expect(readSdkSection(joined.section).block?.body).toBe('declare const tools: { f(): Promise<void> };\n');
    expect(joinedPlace(joined.lines)).toBe(' (the declarations of its fence at line 1)');
  });

  it('are no SDK when no fence declares, the languages differ, one fence names a language or one is open', () => {
    const example = fence('python', 'total = 1', 'total');
    const declaring = fence('python', 'def f() -> int: ...');
    expect(joinedDeclarationFences(`${example}\n${example}\n`)).toBeUndefined();
    expect(joinedDeclarationFences(`${declaring}\n${fence('ts', 'type A = number;')}\n`)).toBeUndefined();
    expect(joinedDeclarationFences(`${declaring}\n${fence('', 'total')}\n`)).toBeUndefined();
    expect(joinedDeclarationFences(`${declaring}\n\`\`\`python\ndef g() -> int: ...\n`)).toBeUndefined();
  });
});
