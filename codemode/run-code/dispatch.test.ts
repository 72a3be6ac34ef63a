import { describe, expect, it } from 'vitest';
import { RUN_CODE_TEXT } from './descriptions.js';
import { parseRunCodeArgs } from './execute.js';
import { languageEntry } from './languages.js';
import { renderSdk, renderSdkSection, SDK_RENDERERS } from './sdk-section.js';
import { runCodeWireTool } from './wire-tool.js';

const tools = [
  { name: 'zeta', description: 'Last.', parameters: { type: 'object', properties: {} } },
  {
    name: 'alpha',
    description: 'First.',
    parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  },
];

describe('language tables', () => {
  it('has one entry per runtime language in each table', () => {
    expect(Object.keys(RUN_CODE_TEXT).sort()).toEqual(['python', 'typescript']);
    expect(Object.keys(SDK_RENDERERS).sort()).toEqual(['python', 'typescript']);
  });

  it.each(['toString', 'constructor', '__proto__', 'hasOwnProperty', 'ruby', ''])(
    'refuses %j, naming the known languages, instead of finding something inherited',
    (language) => {
      expect(() => languageEntry(RUN_CODE_TEXT, language, 'run_code')).toThrow(
        `run_code: no entry for language ${JSON.stringify(language)} (known languages: python, typescript)`,
      );
      expect(() => renderSdkSection(language, tools)).toThrow('known languages: python, typescript');
      expect(() => runCodeWireTool(language)).toThrow('known languages: python, typescript');
    },
  );
});

describe('run_code text', () => {
  it.each([
    ['typescript', 'TypeScript', 'console.log'],
    ['python', 'Python', 'print()'],
  ] as const)('for %s names its language, how to call tools and what counts as output', (language, named, logging) => {
    const { tool, code } = RUN_CODE_TEXT[language];
    for (const text of [tool, code]) expect(text).toContain(named);
    expect(tool).toContain('await tools.name(');
    expect(tool).toContain('returned value');
    expect(tool).toContain(logging);
    expect(tool).toContain('ToolCallError');
    expect(code).toContain('return');
  });

  it('tells a Python program that only tools and ToolCallError exist at run time', () => {
    expect(RUN_CODE_TEXT.python.tool).toContain('Only two names are provided at run time: `tools` and `ToolCallError`');
    expect(RUN_CODE_TEXT.python.tool).toContain('do not exist while the program runs');
  });

  it('never mentions the other language', () => {
    expect(JSON.stringify(RUN_CODE_TEXT.python)).not.toMatch(/TypeScript|console\.log/);
    expect(JSON.stringify(RUN_CODE_TEXT.typescript)).not.toMatch(/Python|print\(/);
  });
});

describe('the run_code wire tool', () => {
  it.each(['typescript', 'python'] as const)(
    'in %s: code and description, both required strings, nothing else',
    (language) => {
      expect(runCodeWireTool(language)).toEqual({
        name: 'run_code',
        description: RUN_CODE_TEXT[language].tool,
        parameters: {
          type: 'object',
          properties: {
            code: { type: 'string', description: RUN_CODE_TEXT[language].code },
            description: { type: 'string', description: expect.any(String) },
          },
          required: ['code', 'description'],
          additionalProperties: false,
        },
      });
    },
  );

  it('accepts exactly the two strings as arguments', () => {
    expect(parseRunCodeArgs({ code: 'return 1', description: 'one' })).toEqual({
      code: 'return 1',
      description: 'one',
    });
    expect(() => parseRunCodeArgs({ code: 1, extra: true })).toThrow(
      'run_code: "code" must be a string; "description" must be a string; unknown argument "extra"',
    );
    expect(() => parseRunCodeArgs('return 1')).toThrow('arguments must be an object');
  });
});

describe('the tools:sdk section', () => {
  it.each(['typescript', 'python'] as const)('is the %s SDK fenced in its language', (language) => {
    const section = renderSdkSection(language, tools);
    const body = renderSdk(language, tools);
    expect(section).toBe('```' + language + '\n' + body + '```');
    expect(body).toBe(SDK_RENDERERS[language](tools).replace(/\n?$/, '\n'));
  });

  it('is the same text whatever the order of the tools', () => {
    for (const language of ['typescript', 'python']) {
      expect(renderSdkSection(language, [...tools].reverse())).toBe(renderSdkSection(language, tools));
    }
  });

  it('uses a fence longer than any backtick run inside, so the block cannot close early', () => {
    const fenced = [{ ...tools[0]!, description: 'Example:\n````\ncode\n````' }];
    for (const language of ['typescript', 'python']) {
      const section = renderSdkSection(language, fenced);
      const lines = section.split('\n');
      const fence = /^`+/.exec(lines[0]!)![0];
      expect(fence.length).toBeGreaterThan(4);
      expect(lines.at(-1)).toBe(fence);
      expect(lines.slice(1, -1).some((line) => line.startsWith(fence))).toBe(false);
    }
  });
});
