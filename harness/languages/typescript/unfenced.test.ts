import { describe, expect, it } from 'vitest';
import { declarationsSection, unfencedDeclarations } from './unfenced.js';

describe('unfenced TypeScript declarations in prose', () => {
  it('takes the lines from the first declaration to the end of the last declare statement', () => {
    const code = 'type A = { "{": string };\n\ndeclare const tools: {\n  a: (input: A) => Promise<unknown>;\n};\n';
    expect(unfencedDeclarations(`Tools:\n${code}Call them.`)).toEqual({
      before: 'Tools:\n',
      code,
      after: 'Call them.',
    });
    // Prose right after the closing brace, on the next line; no prose at all; no line break at the end.
    expect(unfencedDeclarations('declare const tools: {}\nUse await.')).toEqual({
      before: '',
      code: 'declare const tools: {}\n',
      after: 'Use await.',
    });
    // Markdown after the statement, though it does not parse as TypeScript from its first character.
    expect(unfencedDeclarations('declare const tools: {};\n## Rules\n**Never** guess.')).toMatchObject({
      after: '## Rules\n**Never** guess.',
    });
    expect(unfencedDeclarations('declare const tools: Tools;')).toEqual({
      before: '',
      code: 'declare const tools: Tools;\n',
      after: '',
    });
  });

  it('keeps the blank lines and prose above the declarations out of the code', () => {
    const found = unfencedDeclarations('Intro.\n\nTypes below:\n\n\ninterface T { a(): void }\ndeclare var tools: T\n');
    expect(found).toEqual({
      before: 'Intro.\n\nTypes below:\n\n\n',
      code: 'interface T { a(): void }\ndeclare var tools: T\n',
      after: '',
    });
  });

  it('takes nothing from text without a declare statement, and says where lines that are not TypeScript stand', () => {
    expect(unfencedDeclarations('Call tools.a() and await it.')).toBeUndefined();
    expect(unfencedDeclarations('  declare const tools: {}')).toBeUndefined();
    // Indented prose above is taken for code and does not parse; a statement that never closes does not either.
    expect(unfencedDeclarations('Types:\n  the ones you may call\ndeclare const tools: {}')).toEqual({
      problem:
        'TypeScript declarations at lines 2-3 that do not parse: Unexpected keyword or identifier. (line 2, column 3)',
    });
    expect(unfencedDeclarations('Intro.\ndeclare const tools: {\n  a: string;\nThen write code.')).toEqual({
      problem: "TypeScript declarations at lines 2-3 that do not parse: '}' expected. (line 4, column 1)",
    });
    // Deeper than the compiler's parser reaches: said, not thrown.
    const deep = `declare const tools: ${'{ a: '.repeat(5_000)}string${' }'.repeat(5_000)};`;
    expect(unfencedDeclarations(deep)).toEqual({
      problem: 'TypeScript declarations nested deeper than the TypeScript compiler can read (it ran out of stack)',
    });
    expect(unfencedDeclarations('declare const tools = 1 +;')).toEqual({
      problem: 'TypeScript declarations at line 1 that do not parse: Expression expected. (line 1, column 26)',
    });
  });
});

describe('a text with TypeScript declarations as a tools:sdk section', () => {
  const code = 'declare const tools: {\n  a: () => Promise<unknown>;\n};\n';

  it('fences unfenced declarations as TypeScript, and keeps a fence of examples as it is', () => {
    const example = '```\nawait tools.a();\n```\n';
    expect(declarationsSection(`Tools:\n${code}\nFor example:\n${example}`)).toEqual({
      section: `Tools:\n\`\`\`ts\n${code}\`\`\`\n\nFor example:\n${example}`,
    });
  });

  it('names the language of the one fence without an info string that holds only declarations', () => {
    expect(declarationsSection(`Tools:\n\`\`\`\n${code}\`\`\`\nCall them.`)).toEqual({
      section: `Tools:\n\`\`\`ts\n${code}\`\`\`\nCall them.`,
    });
  });

  it('says so when the declarations stand in a fence beside other code, or in two fences', () => {
    expect(declarationsSection(`Tools:\n\`\`\`\n${code}await tools.a();\n\`\`\`\n`)).toEqual({
      problem: 'TypeScript declarations standing partly inside the fence at line 2',
    });
    expect(declarationsSection(`\`\`\`\n${code}\`\`\`\n\`\`\`\n${code}\`\`\`\n`)).toEqual({
      problem: 'TypeScript declarations standing partly inside the fence at line 6',
    });
    expect(declarationsSection('No code here.')).toBeUndefined();
  });
});
