import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckInputError } from '../readers/input-error.js';
import { Session } from '../session.js';
import { checkRequest, checkSdk } from './check.js';
import { concordMatchers } from './vitest.js';

// A backend whose runtime binds the tools as `codemode` (programs call `codemode.lookup(…)`), and its SDK written
// as such renderers write theirs: one input type per tool, function-typed properties, JSDoc above each.
const SECTION = [
  'type LookupInput = {',
  '    /** The word to look up. */',
  '    word: string;',
  '};',
  'type LookupOutput = unknown',
  '',
  'declare const codemode: {',
  '\t/**',
  '\t * Looks a word up in the glossary.',
  '\t */',
  '\tlookup: (input: LookupInput) => Promise<LookupOutput>;',
  '};',
  '',
].join('\n');

const session = new Session({ pyodides: [] });
let root = '';
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'concord-check-object-'));
});
afterAll(async () => {
  await session.dispose();
  await rm(root, { recursive: true, force: true });
});

const check = (options: { toolsObject?: string; tools?: string[] }, section = SECTION) =>
  checkSdk({ section, language: 'typescript' }, { root, session, ...options });

describe('an SDK whose tools are bound under another name', () => {
  it('offers no tool on `tools`, and the finding names the object it binds and the option that reads it', async () => {
    const result = await check({});
    expect(result.ok).toBe(false);
    expect(result.lines).toEqual([
      'error sdk-names: the SDK block of the SDK offers no tool: it declares none of `declare const tools: …`, a class or a namespace named `tools`, or functions of its own, but binds `codemode`; if your runtime binds the tools under another name, give it: --tools-object codemode (toolsObject in the API and the matcher)',
    ]);
  });

  it('says a `tools` typed to name no tool is declared, and what hides the tools: an index signature, a bare __getattr__', {
    timeout: 60_000,
  }, async () => {
    const catchAll = 'declare const tools: Record<string, (args: Record<string, unknown>) => Promise<unknown>>;\n';
    expect((await check({ tools: ['lookup'] }, catchAll)).lines).toEqual([
      "error sdk-names: the SDK block of the SDK offers no tool: `tools` is declared, but its type names no tool: an empty type, or an index signature such as `Record<string, …>`, shows the model no tool's name, arguments or result; declare each tool as a member of its type",
    ]);
    const python =
      'from typing import Any\n\n\nclass Tools:\n    def __getattr__(self, name: str) -> Any: ...\n\n\ntools: Tools\n';
    expect((await checkSdk({ section: python, language: 'python' }, { root, session })).lines).toEqual([
      "error sdk-names: the SDK block of the SDK offers no tool: `tools` is declared, but its class names no tool: an empty class, or a `__getattr__` that lists no names, shows the model no tool's name, arguments or result; declare each tool as a method of the class",
    ]);
  });

  it('passes read off `codemode`, its tools reachable; a tool it lacks is still a finding', async () => {
    expect((await check({ toolsObject: 'codemode', tools: ['lookup'] })).lines).toEqual([]);
    expect((await check({ toolsObject: 'codemode', tools: ['lookup', 'define'] })).lines).toEqual([
      'error sdk-names: the SDK block of the SDK: tool "define" is not reachable from the SDK: no method and no listed name reaches it',
    ]);
  });

  it('reads Python stubs off the object too', { timeout: 60_000 }, async () => {
    const stubs = 'class Codemode:\n    async def lookup(self, args: dict) -> dict: ...\n\n\ncodemode: Codemode\n';
    const python = (toolsObject?: string) =>
      checkSdk(
        { section: stubs, language: 'python' },
        { root, session, tools: ['lookup'], ...(toolsObject === undefined ? {} : { toolsObject }) },
      );
    // One fault, one finding: the tool it leaves unreachable is not said again.
    expect((await python()).lines).toEqual([
      'error sdk-names: the SDK block of the SDK offers no tool: it declares none of `tools: Tools` with a class `Tools`, a class `tools`, or module-level functions, but binds `codemode`; if your runtime binds the tools under another name, give it: --tools-object codemode (toolsObject in the API and the matcher)',
    ]);
    expect((await python('codemode')).lines).toEqual([]);
  });

  it('takes the code tool by the name the backend gives it', async () => {
    const runCode = {
      type: 'function',
      function: {
        name: 'codemode',
        description: 'Runs an async arrow function written in JavaScript.',
        parameters: { type: 'object', properties: { code: { type: 'string', description: 'The JavaScript.' } } },
      },
    };
    const input = { section: SECTION, language: 'typescript' as const, runCode };
    const named = await checkSdk(input, { root, session, toolsObject: 'codemode', codeTool: 'codemode' });
    expect(named.lines).toEqual([]);
    // Unnamed, it is found by the `code` string it takes.
    expect((await checkSdk(input, { root, session, toolsObject: 'codemode' })).lines).toEqual([]);
    const { parameters: _, ...noCode } = runCode.function;
    await expect(checkSdk({ ...input, runCode: noCode }, { root, session, toolsObject: 'codemode' })).rejects.toThrow(
      'no function here runs programs: "codemode" takes no `code` string',
    );
  });

  it("checks the SDK a request carries in its code tool's description, as unfenced declarations", async () => {
    const request = (section: string, code = 'An async arrow function in JavaScript.', ending = '\n') => ({
      messages: [{ role: 'user', content: 'Define "idempotent".' }],
      tools: [
        {
          type: 'function',
          function: {
            name: 'codemode',
            description:
              `Run code against the glossary.\n\nAvailable:\n${section}\nWrite an async arrow function in JavaScript.`.replaceAll(
                '\n',
                ending,
              ),
            parameters: {
              type: 'object',
              properties: { code: { type: 'string', description: code } },
              required: ['code'],
            },
          },
        },
      ],
    });
    const options = { root, session, toolsObject: 'codemode', codeTool: 'codemode', tools: ['lookup'] };
    expect((await checkRequest(request(SECTION), options)).lines).toEqual([]);
    // A fault in the declarations is told at the line of the block.
    const faulty = SECTION.replace('word: string', 'word: Word');
    const typeFault =
      "error typecheck-programs: the SDK block of the request $.tools[0].description does not type-check (tsc): Cannot find name 'Word'. (tools-sdk.ts line 3, column 11)";
    expect((await checkRequest(request(faulty), options)).lines).toEqual([typeFault]);
    // Written with CRLF or CR line endings, the same description reads the same.
    for (const ending of ['\r\n', '\r']) {
      expect((await checkRequest(request(SECTION, undefined, ending), options)).lines).toEqual([]);
      expect((await checkRequest(request(faulty, undefined, ending), options)).lines).toEqual([typeFault]);
    }
    // The code parameter is named where it is: beside the description, in the tool. Silent on the language while
    // the tool's description says it, it is a note.
    expect((await checkRequest(request(SECTION, 'The program to run.'), options)).lines).toEqual([
      'note language-agreement: the codemode `code` parameter description in the request $.tools[0] (TypeScript) never names TypeScript or JavaScript: the model is told the language by the codemode description alone',
    ]);
  });

  it("reads Python declarations split over fences beside an example in the code tool's description", {
    timeout: 60_000,
  }, async () => {
    // As some renderers write it: functions called by name (no `tools` object), typing's names never imported.
    const python = (body: string) => `\`\`\`python\n${body}\n\`\`\``;
    const description = [
      'Run a Python snippet; its last expression is the result, as in:',
      python('found = await lookup(word="idempotent")\nfound'),
      'These functions can be awaited in it:',
      python('class Entry(TypedDict):\n    word: str\n    meaning: NotRequired[str]'),
      python('async def lookup(*, word: str) -> Entry:\n    """Looks a word up."""\n    ...'),
    ].join('\n\n');
    const request = {
      messages: [{ role: 'user', content: 'Define "idempotent".' }],
      tools: [
        {
          name: 'run_code',
          description,
          input_schema: {
            type: 'object',
            properties: { code: { type: 'string', description: 'The Python snippet.' } },
          },
        },
      ],
    };
    const options = { root, session, tools: ['lookup'] };
    const errors = async (floor: '3.9' | '3.11') =>
      (await checkRequest(request, { ...options, floor })).lines.filter((line) => line.startsWith('error'));
    expect(await errors('3.11')).toEqual([]);
    // Below 3.11 the typing it runs with has no NotRequired: true for a reader on 3.9 too.
    const [finding, ...more] = await errors('3.9');
    expect(more).toEqual([]);
    expect(finding).toContain(
      "error stub-import: the SDK block of the request $.tools[0].description (the declarations of its fences at lines 10 and 16, joined) compiles and imports nothing (it ran with the names of the interpreter's typing bound) but fails when executed as a module on ",
    );
    expect(finding).toContain(": NameError at line 3, column 5: name 'NotRequired' is not defined");
  });

  it('says in a note, failing nothing, that a request with no function that runs programs left that function unchecked', async () => {
    const section = '```ts\ndeclare const tools: { lookup(args: { word: string }): Promise<unknown> };\n```\n';
    const request = { messages: [{ role: 'system', content: `Write TypeScript.\n${section}` }] };
    const result = await checkRequest(request, { root, session });
    expect(result.ok).toBe(true);
    expect(result.lines).toEqual([
      "note language-agreement: the request has no function that runs programs (run_code, or one that takes a `code` string), so no code tool's description or `code` parameter was checked; if it has one under another name, give it: --code-tool NAME (codeTool in the API and the matcher)",
    ]);
  });

  it('judges the description of a code tool that takes the program as its whole input, and no code parameter', async () => {
    // A custom tool of the Responses API: free-form text, no arguments.
    const section = '```ts\ndeclare const tools: { lookup(args: { word: string }): Promise<unknown> };\n```\n';
    const request = (tool: object) => ({
      instructions: section,
      input: [{ role: 'user', content: 'Hi' }],
      tools: [tool],
    });
    const custom = { type: 'custom', name: 'run_code', description: 'Runs the TypeScript program it is sent.' };
    expect((await checkRequest(request(custom), { root, session })).lines).toEqual([]);
    expect(
      (await checkRequest(request({ ...custom, description: 'Runs a program.' }), { root, session })).lines,
    ).toEqual([
      'error language-agreement: the run_code description in the request $.tools[0] (TypeScript) never names TypeScript or JavaScript',
    ]);
    // A function is sent arguments: without a `code` parameter, it still lacks its description.
    const fn = { type: 'function', name: 'run_code', description: custom.description };
    expect((await checkRequest(request(fn), { root, session })).lines).toEqual([
      'error language-agreement: the run_code `code` parameter description in the request $.tools[0] (TypeScript) is missing',
    ]);
  });

  it('finds a block nested deeper than the compiler reads, once, rather than failing', async () => {
    const deep = `declare const codemode: ${'{ a: '.repeat(5_000)}string${' }'.repeat(5_000)};\n`;
    expect((await check({ toolsObject: 'codemode' }, deep)).lines).toEqual([
      'error typecheck-programs: the SDK block of the SDK nests too deeply for the TypeScript compiler to read (it ran out of stack)',
    ]);
  });

  it('says what the block declares when it binds no value at all', async () => {
    const { lines } = await check({ toolsObject: 'codemode' }, 'type LookupInput = { word: string };\n');
    expect(lines).toEqual([
      'error sdk-names: the SDK block of the SDK offers no tool: it declares none of `declare const codemode: …`, a class or a namespace named `codemode`, or functions of its own',
    ]);
  });

  it('refuses a name no program can bind the tools under, before checking anything', async () => {
    for (const name of ['code mode', 'codemode.tools', '', '1st']) {
      await expect(check({ toolsObject: name })).rejects.toThrow(CheckInputError);
    }
    await expect(check({ toolsObject: 'code mode' })).rejects.toThrow(
      '"code mode" is no name a TypeScript program can bind the tools under',
    );
    // `$` begins a TypeScript name; Python has neither it nor keywords as names.
    expect((await check({ toolsObject: '$tools' })).ok).toBe(false);
    await expect(
      checkSdk({ section: 'class Tools: ...\n', language: 'python' }, { root, session, toolsObject: 'class' }),
    ).rejects.toThrow('"class" is no name a Python program can bind the tools under');
    await expect(
      checkSdk({ section: 'class Tools: ...\n', language: 'python' }, { root, session, toolsObject: '$tools' }),
    ).rejects.toThrow(CheckInputError);
    // Nothing was written in the project.
    expect(await readdir(root)).toEqual([]);
  });
});

describe('an SDK given without its language', () => {
  it('takes the language its block names, in the API and the matcher; prose is refused, saying why', async () => {
    const section = `Write TypeScript.\n\`\`\`ts\n${SECTION}\`\`\`\n`;
    const options = { root, session, toolsObject: 'codemode' };
    expect((await checkSdk({ section }, options)).lines).toEqual([]);
    const matched = await concordMatchers.toPassConcordChecks({ section }, options);
    expect(matched.pass).toBe(true);
    await expect(checkSdk({ section: 'Answer briefly.' }, options)).rejects.toThrow(
      'the SDK: shows no SDK (no code block): it is not a Code Mode prompt',
    );
    await expect(checkSdk({ section, language: 'ruby' as 'python' }, options)).rejects.toThrow(
      'the language "ruby" is none concord reads',
    );
    await expect(checkRequest({ messages: [{ role: 'system', content: 'Answer briefly.' }] }, options)).rejects.toThrow(
      'the request: shows no SDK (no SDK block): it is not a Code Mode prompt',
    );
  });
});

describe('the verdict cache of a check', () => {
  it('is kept in the project unless --no-cache (cache: false) or CONCORD_NO_CACHE says not to', async () => {
    const section = `\`\`\`ts\n${SECTION}\`\`\`\n`;
    const project = await mkdtemp(join(tmpdir(), 'concord-check-cache-'));
    try {
      await checkSdk({ section }, { root: project, toolsObject: 'codemode', cache: false });
      expect(await readdir(project)).toEqual([]);
      process.env.CONCORD_NO_CACHE = '1';
      try {
        await checkSdk({ section }, { root: project, toolsObject: 'codemode' });
      } finally {
        delete process.env.CONCORD_NO_CACHE;
      }
      expect(await readdir(project)).toEqual([]);
      await checkSdk({ section }, { root: project, toolsObject: 'codemode' });
      expect(await readdir(project)).toEqual(['.concord']);
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });
});
