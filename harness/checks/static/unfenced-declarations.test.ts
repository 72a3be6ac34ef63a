import { describe, expect, it } from 'vitest';
import { declarationsSection, unfencedDeclarations } from './unfenced-declarations.js';

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
    expect(unfencedDeclarations('declare const tools: {};\n## Rules\n**Never** guess.')?.after).toBe(
      '## Rules\n**Never** guess.',
    );
    expect(unfencedDeclarations('declare const tools: Tools;')).toEqual({
      before: '',
      code: 'declare const tools: Tools;\n',
      after: '',
    });
  });

  it('keeps the blank lines and prose above the declarations out of the code', () => {
    const found = unfencedDeclarations('Intro.\n\nTypes below:\n\n\ninterface T { a(): void }\ndeclare var tools: T\n');
    expect(found?.before).toBe('Intro.\n\nTypes below:\n\n\n');
    expect(found?.code).toBe('interface T { a(): void }\ndeclare var tools: T\n');
  });

  it('takes nothing from text without a declare statement or whose lines are not TypeScript', () => {
    expect(unfencedDeclarations('Call tools.a() and await it.')).toBeUndefined();
    expect(unfencedDeclarations('  declare const tools: {}')).toBeUndefined();
    // Indented prose above is taken for code and does not parse; a statement that never closes does not either.
    expect(unfencedDeclarations('Types:\n  the ones you may call\ndeclare const tools: {}')).toBeUndefined();
    expect(unfencedDeclarations('declare const tools: {\n  a: string;\nThen write code.')).toBeUndefined();
    expect(unfencedDeclarations('declare const tools = 1 +;')).toBeUndefined();
  });
});

describe('a text with TypeScript declarations as a tools:sdk section', () => {
  const code = 'declare const tools: {\n  a: () => Promise<unknown>;\n};\n';

  it('fences unfenced declarations as TypeScript, and keeps a fence of examples as it is', () => {
    const example = '```\nawait tools.a();\n```\n';
    expect(declarationsSection(`Tools:\n${code}\nFor example:\n${example}`)).toBe(
      `Tools:\n\`\`\`ts\n${code}\`\`\`\n\nFor example:\n${example}`,
    );
  });

  it('names the language of the one fence without an info string that holds only declarations', () => {
    expect(declarationsSection(`Tools:\n\`\`\`\n${code}\`\`\`\nCall them.`)).toBe(
      `Tools:\n\`\`\`ts\n${code}\`\`\`\nCall them.`,
    );
  });

  it('takes nothing when the declarations stand in a fence beside other code, or in two fences', () => {
    expect(declarationsSection(`\`\`\`\n${code}await tools.a();\n\`\`\`\n`)).toBeUndefined();
    expect(declarationsSection(`\`\`\`\n${code}\`\`\`\n\`\`\`\n${code}\`\`\`\n`)).toBeUndefined();
    expect(declarationsSection('No code here.')).toBeUndefined();
  });
});
