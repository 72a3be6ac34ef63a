import { describe, expect, it } from 'vitest';
import { readSdkSection } from '../../contract/sdk-section.js';
import { codeToolOf, type ModelView } from './model-view.js';
import { CheckInputError, requestView, runCodeFile, sdkFileLanguage, sdkFileView } from './request.js';
import { snapshotSectionViews, snapshotViews } from './snapshot-views.js';

const RUN_CODE = {
  type: 'function',
  function: {
    name: 'run_code',
    description: 'Runs a Python program.',
    parameters: { type: 'object', properties: { code: { type: 'string' } } },
  },
};
const SECTION =
  'Write Python.\n\n```python\nclass Tools:\n    async def a(self, args: dict) -> dict: ...\n\ntools: Tools\n```\n';
const body = (messages: unknown, tools: unknown = [RUN_CODE]) => JSON.stringify({ messages, tools });

/** The message and the place of the CheckInputError that reading `text` throws. */
function refusal(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    if (error instanceof CheckInputError) return error.message;
    throw error;
  }
  throw new Error('the input was read');
}

/** What a view says of its one request: the section, the code tool and where each was met, the tools and notes. */
function subjectOf(view: ModelView) {
  const request = view.requests[0]!;
  return {
    source: view.source,
    language: view.language,
    section: request.sdkSection!,
    runCode: codeToolOf(view, request),
    runCodeSource: view.codeToolPlace?.replace(/^in /, ''),
    registered: view.registered,
    unchecked: view.notes.length === 0 ? undefined : view.notes,
  };
}
const requestSubject = (...args: Parameters<typeof requestView>) => subjectOf(requestView(...args));
const sdkFileSubject = (...args: Parameters<typeof sdkFileView>) => subjectOf(sdkFileView(...args));

/** The code of a subject's SDK block. */
const blockOf = (subject: { section: string }) => readSdkSection(subject.section).block?.body;

describe('a chat request body as concord check reads it', () => {
  it('takes the system message holding the fenced block, the run_code function and the native tools', () => {
    const subject = requestSubject(
      body(
        [
          { role: 'system', content: 'You keep a glossary.' },
          { role: 'developer', content: [{ type: 'text', text: SECTION }] },
          { role: 'user', content: 'Hello ```python\nnot this```' },
        ],
        [RUN_CODE, { type: 'function', function: { name: 'a', parameters: {} } }],
      ),
      'requests/one.json',
    );
    expect(subject).toMatchObject({
      source: 'requests/one.json $.messages[1].content[0].text',
      language: 'python',
      section: SECTION,
      runCode: { name: 'run_code', description: 'Runs a Python program.' },
      registered: { names: ['a'], complete: false },
    });
  });

  it('takes the function that runs programs by the name the backend gives it', () => {
    const execute = { ...RUN_CODE, function: { ...RUN_CODE.function, name: 'execute_code' } };
    const native = { type: 'function', function: { name: 'a', parameters: {} } };
    const text = body([{ role: 'system', content: SECTION }], [execute, native]);
    expect(requestSubject(text, 'r.json', 'execute_code')).toMatchObject({
      runCode: { name: 'execute_code', description: 'Runs a Python program.' },
      registered: { names: ['a'], complete: false },
    });
    // Read for `run_code`, it would be one more native tool the SDK must offer: a function that takes `code` is
    // refused as the code tool under another name, with the option that names it.
    expect(refusal(() => requestSubject(text, 'r.json'))).toBe(
      'r.json: the request has no function named "run_code", the one that runs programs; $.tools[0] "execute_code" takes a `code` string\n  hint: if "execute_code" runs the programs, name it: --code-tool "execute_code" (codeTool in the API and the matcher)',
    );
    // Without one, the request's functions are its native tools, and the SDK is read alone.
    const natives = requestSubject(body([{ role: 'system', content: SECTION }], [native]), 'r.json');
    expect([natives.runCode, natives.registered]).toEqual([undefined, { names: ['a'], complete: false }]);
  });

  it("reads Anthropic Messages' top-level system and the Responses API's instructions and input", () => {
    const anthropic = JSON.stringify({
      system: [
        { type: 'text', text: 'You keep a glossary.' },
        { type: 'text', text: SECTION },
      ],
      messages: [{ role: 'user', content: 'Hello' }],
      tools: [
        { name: 'run_code', description: 'Runs a Python program.', input_schema: { type: 'object' } },
        { name: 'a', input_schema: { type: 'object' } },
        { type: 'web_search_20250305', name: 'web_search' },
      ],
    });
    expect(requestSubject(anthropic, 'claude.json')).toMatchObject({
      source: 'claude.json $.system[1].text',
      language: 'python',
      section: SECTION,
      runCode: { name: 'run_code', description: 'Runs a Python program.', parameters: { type: 'object' } },
      registered: { names: ['a'], complete: false },
    });
    const responses = (fields: Record<string, unknown>) =>
      JSON.stringify({
        ...fields,
        tools: [
          { type: 'function', name: 'run_code', description: 'Runs a Python program.', parameters: {} },
          { type: 'web_search' },
        ],
      });
    expect(requestSubject(responses({ instructions: SECTION, input: 'Hello' }), 'r.json')).toMatchObject({
      source: 'r.json $.instructions',
      runCode: { name: 'run_code' },
    });
    expect(requestSubject(responses({ instructions: SECTION, input: 'Hello' }), 'r.json').registered).toBeUndefined();
    const developer = responses({ input: [{ role: 'developer', content: [{ type: 'input_text', text: SECTION }] }] });
    expect(requestSubject(developer, 'r.json').source).toBe('r.json $.input[0].content[0].text');
    // A tool of the backend's own with no name is still refused, at its place in the list.
    const nameless = JSON.stringify({ instructions: SECTION, input: 'Hi', tools: [{ type: 'web_search' }, {}] });
    expect(refusal(() => requestSubject(nameless, 'r.json'))).toMatch(/^r\.json: \$\.tools\[1\] names no function/);
  });

  it("reads Gemini's systemInstruction and each function declaration, leaving its search tool out", () => {
    const gemini = JSON.stringify({
      systemInstruction: { parts: [{ text: 'You keep a glossary.' }, { text: SECTION }] },
      contents: [{ role: 'user', parts: [{ text: 'Hello' }] }],
      tools: [
        {
          functionDeclarations: [
            { name: 'run_code', description: 'Runs a Python program.', parametersJsonSchema: { type: 'object' } },
            { name: 'a', parameters: { type: 'object' } },
          ],
        },
        { googleSearch: {} },
      ],
    });
    expect(requestSubject(gemini, 'g.json')).toMatchObject({
      source: 'g.json $.systemInstruction.parts[1].text',
      runCode: { name: 'run_code', description: 'Runs a Python program.', parameters: { type: 'object' } },
      registered: { names: ['a'], complete: false },
    });
    const nameless = gemini.replace('{"name":"a",', '{');
    expect(refusal(() => requestSubject(nameless, 'g.json'))).toMatch(
      /^g\.json: \$\.tools\[0\]\.functionDeclarations\[1\] names no function/,
    );
  });

  it("reads Bedrock Converse's system and toolConfig: the toolSpec, its inputSchema's json, no cache point", () => {
    const schema = { type: 'object', properties: { code: { type: 'string', description: 'Python source' } } };
    const converse = JSON.stringify({
      system: [{ text: 'You keep a glossary.' }, { text: SECTION }, { cachePoint: { type: 'default' } }],
      messages: [{ role: 'user', content: [{ text: 'Hello' }] }],
      toolConfig: {
        tools: [
          { toolSpec: { name: 'run_code', description: 'Runs a Python program.', inputSchema: { json: schema } } },
          { toolSpec: { name: 'a', inputSchema: { json: { type: 'object' } } } },
          { cachePoint: { type: 'default' } },
        ],
      },
    });
    expect(requestSubject(converse, 'b.json')).toMatchObject({
      source: 'b.json $.system[1].text',
      runCode: { name: 'run_code', description: 'Runs a Python program.', parameters: schema },
      runCodeSource: 'b.json $.toolConfig.tools[0]',
      registered: { names: ['a'], complete: false },
    });
  });

  it('reads the call options a model of the AI SDK is given: the prompt, and tools with their inputSchema', () => {
    // What a test double of a model receives from generateText: the system message first in `prompt`.
    const options = JSON.stringify({
      prompt: [
        { role: 'system', content: SECTION },
        { role: 'user', content: [{ type: 'text', text: 'Hello' }] },
      ],
      tools: [
        { type: 'function', name: 'run_code', description: 'Runs a Python program.', inputSchema: { type: 'object' } },
        { type: 'function', name: 'a', inputSchema: { type: 'object' } },
        { type: 'provider', id: 'search.web', name: 'web_search', args: {} },
      ],
      toolChoice: { type: 'auto' },
    });
    expect(requestSubject(options, 'call.json')).toMatchObject({
      source: 'call.json $.prompt[0].content',
      language: 'python',
      runCode: { name: 'run_code', parameters: { type: 'object' } },
      registered: { names: ['a'], complete: false },
    });
  });

  it("reads the SDK from the code tool's description when the system prompt holds none: one fenced block", () => {
    const described = { type: 'function', function: { ...RUN_CODE.function, description: `Runs Python.\n${SECTION}` } };
    for (const messages of [[{ role: 'system', content: 'Be brief.' }], [{ role: 'user', content: 'Hi' }]]) {
      expect(requestSubject(body(messages, [described]), 'r.json')).toMatchObject({
        source: 'r.json $.tools[0].description',
        language: 'python',
        section: `Runs Python.\n${SECTION}`,
      });
    }
    // The system prompt's SDK comes first.
    const system = [{ role: 'system', content: SECTION.replace('async def a', 'async def b') }];
    expect(requestSubject(body(system, [described]), 'r.json')).toMatchObject({
      source: 'r.json $.messages[0].content',
    });
  });

  it("reads unfenced TypeScript declarations in the code tool's description as the SDK, the prose around them kept", () => {
    const declarations = [
      'type LookUpInput = {',
      '    /** The word to look up */',
      '    word: string;',
      '}',
      'type LookUpOutput = unknown',
      '',
      'declare const glossary: {',
      '\t/**',
      '\t * Looks a word up',
      '\t */',
      '\tlook_up: (input: LookUpInput) => Promise<LookUpOutput>;',
      '}',
      '',
    ].join('\n');
    const before = 'Run a program against the glossary.\n\nYou can call:\n';
    const after =
      '\nWrite an async arrow function in JavaScript.\nExample: async () => glossary.look_up({ word: "x" })';
    const tool = {
      type: 'function',
      function: { name: 'glossary_code', description: `${before}${declarations}${after}`, parameters: {} },
    };
    const subject = requestSubject(body([{ role: 'user', content: 'Hi' }], [tool]), 'r.json', 'glossary_code');
    expect(subject).toMatchObject({
      source: 'r.json $.tools[0].description',
      language: 'typescript',
      section: `${before}\`\`\`ts\n${declarations}\`\`\`\n${after}`,
      runCode: { name: 'glossary_code' },
    });
  });

  it("says where declarations in the code tool's description stop parsing", () => {
    const tool = {
      type: 'function',
      function: { ...RUN_CODE.function, description: 'Types:\ndeclare const tools: {\n  a: string;\nWrite code.' },
    };
    const message =
      /the run_code description holds TypeScript declarations at lines 2-3 that do not parse: '}' expected\. \(line 4, column 1\)\n {2}hint: fix the declarations, or save the SDK as a file/;
    expect(refusal(() => requestSubject(body([{ role: 'user', content: 'Hi' }], [tool]), 'r.json'))).toMatch(message);
    expect(refusal(() => requestSubject(body([{ role: 'system', content: 'Be brief.' }], [tool]), 'r.json'))).toMatch(
      message,
    );
  });

  it("reads the SDK beside an example program in the code tool's description; two examples are no SDK", () => {
    const describedAs = (description: string) => ({ ...RUN_CODE, function: { ...RUN_CODE.function, description } });
    const beside = describedAs(
      `Runs Python. Functions:\n${SECTION}Example:\n\`\`\`python\nawait tools.a({})\n\`\`\`\n`,
    );
    const subject = requestSubject(body([{ role: 'system', content: 'Be brief.' }], [beside]), 'r.json');
    expect(subject.source).toBe('r.json $.tools[0].description (the declarations of its fence at line 4)');
    expect(readSdkSection(subject.section).block?.body).toBe(
      'class Tools:\n    async def a(self, args: dict) -> dict: ...\n\ntools: Tools\n',
    );
    const examples = describedAs('Runs Python, as in:\n```python\nx = 1\nx\n```\nor:\n```python\nawait a()\n```\n');
    const message =
      /the run_code description holds 2 fenced block\(s\) but not one SDK block \(one fence naming python or ts\): line 2: ```python; line 7: ```python\n {2}hint: concord reads the SDK from the system prompt, or from run_code's description when that holds one SDK block; .* concord check --sdk FILE --language python\|typescript --run-code FILE/;
    expect(
      refusal(() => requestSubject(body([{ role: 'system', content: 'Be brief.' }], [examples]), 'r.json')),
    ).toMatch(message);
    expect(refusal(() => requestSubject(body([{ role: 'user', content: 'Hi' }], [examples]), 'r.json'))).toMatch(
      message,
    );
  });

  it('reads the SDK a system prompt writes in two fences, types then functions, beside an example', () => {
    const prompt = [
      'Write Python. For example:',
      '```python\nfound = await a()\nfound\n```',
      '```python\nclass Found(TypedDict):\n    id: str\n```',
      '```python\nasync def a() -> Found: ...\n```',
    ].join('\n');
    const subject = requestSubject(body([{ role: 'system', content: prompt }]), 'r.json');
    expect(subject.source).toBe(
      'r.json $.messages[0].content (the declarations of its fences at lines 6 and 10, joined)',
    );
    expect(readSdkSection(subject.section).block?.body).toBe(
      'class Found(TypedDict):\n    id: str\n\n\nasync def a() -> Found: ...\n',
    );
  });

  it.each([
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('reads a request written with %s line endings as one written with LF', (_, ending) => {
    const lines = (text: string) => text.replaceAll('\n', ending);
    const stubs = 'class Tools:\n    async def a(self, args: dict) -> dict: ...\n\ntools: Tools\n';
    const inSystem = requestSubject(body([{ role: 'system', content: lines(SECTION) }]), 'r.json');
    expect([inSystem.source, blockOf(inSystem)]).toEqual(['r.json $.messages[0].content', stubs]);
    const described = {
      ...RUN_CODE,
      function: { ...RUN_CODE.function, description: lines(`Runs Python.\n${SECTION}`) },
    };
    const inTool = requestSubject(body([{ role: 'user', content: 'Hi' }], [described]), 'r.json');
    expect([inTool.source, blockOf(inTool)]).toEqual(['r.json $.tools[0].description', stubs]);
    // Unfenced TypeScript declarations between prose, and declarations in two fences beside an example.
    const declarations = 'type A = { id: string };\ndeclare const tools: {\n  a(args: A): Promise<unknown>;\n};\n';
    const unfenced = {
      ...RUN_CODE,
      function: { ...RUN_CODE.function, description: lines(`Types:\n${declarations}Go.`) },
    };
    const read = requestSubject(body([{ role: 'user', content: 'Hi' }], [unfenced]), 'r.json');
    expect([read.language, blockOf(read)]).toEqual(['typescript', declarations]);
    const prompt = lines(
      'For example:\n```python\nfound = await a()\n```\n```python\nclass F(TypedDict):\n    id: str\n```\n```python\nasync def a() -> F: ...\n```\n',
    );
    const joined = requestSubject(body([{ role: 'system', content: prompt }]), 'r.json');
    expect([joined.source, blockOf(joined)]).toEqual([
      'r.json $.messages[0].content (the declarations of its fences at lines 5 and 9, joined)',
      'class F(TypedDict):\n    id: str\n\n\nasync def a() -> F: ...\n',
    ]);
    // An SDK file: a section, or the bare code.
    expect(blockOf(sdkFileSubject(lines(SECTION), 'sdk.md', 'python'))).toBe(stubs);
    expect(blockOf(sdkFileSubject(lines(stubs), 'sdk.py', 'python'))).toBe(stubs);
  });

  it('reads a text that starts with a byte order mark, as a file an editor wrote and a test read, as without it', () => {
    const mark = '\uFEFF';
    const subject = requestSubject(mark + body([{ role: 'system', content: SECTION }]), 'r.json');
    expect([subject.source, subject.section]).toEqual(['r.json $.messages[0].content', SECTION]);
    expect(runCodeFile(mark + JSON.stringify(RUN_CODE), 'run_code.json').name).toBe('run_code');
    expect(sdkFileSubject(mark + SECTION, 'sdk.md', 'python').section).toBe(SECTION);
  });

  it("reads the functions of a code agent's prompt whose example blocks end in a stop marker", () => {
    const prompt = [
      'Think, then write code. For instance:',
      '```py\nlouder = shout("hi")\nfinish(louder)\n```<end_code>',
      'The functions you may call:',
      '```python\ndef shout(text: str) -> str:\n    """Upper-cases text."""\n\ndef finish(answer: object) -> object:\n    """Ends the task."""\n```',
      'End every program with ```<end_code>.',
    ].join('\n');
    const subject = requestSubject(body([{ role: 'system', content: prompt }], []), 'agent.json');
    expect(subject.source).toBe('agent.json $.messages[0].content (the declarations of its fence at line 7)');
    expect(readSdkSection(subject.section).block?.body).toBe(
      'def shout(text: str) -> str:\n    """Upper-cases text."""\n\ndef finish(answer: object) -> object:\n    """Ends the task."""\n',
    );
  });

  it('refuses, naming the file and the place: not JSON, no messages, no block, two blocks, an unknown language', () => {
    expect(refusal(() => requestSubject('{"messages": [', 'r.json'))).toMatch(
      /^r\.json: the request is not valid JSON \(line 1, column 15\)/,
    );
    expect(refusal(() => requestSubject('[]', 'r.json'))).toMatch(/^r\.json: \$ is not a JSON object/);
    expect(refusal(() => requestSubject('{}', 'r.json'))).toMatch(
      /^r\.json: \$\.messages is missing or not a list \(and so are \$\.input, \$\.prompt and \$\.contents\)/,
    );
    expect(refusal(() => requestSubject(body([{ role: 'user', content: SECTION }]), 'r.json'))).toMatch(
      /^r\.json: the request holds no system prompt with text \(a system or developer message, \$\.system, \$\.instructions or \$\.systemInstruction\)/,
    );
    expect(refusal(() => requestSubject(body([{ role: 'system', content: 'No SDK here.' }]), 'r.json'))).toMatch(
      /^r\.json: no system prompt holds a fenced SDK block \(```python or ```ts\)/,
    );
    const two = body([
      { role: 'system', content: SECTION },
      { role: 'system', content: '```ts\ndeclare const tools: {};\n```' },
    ]);
    expect(refusal(() => requestSubject(two, 'r.json'))).toMatch(
      /^r\.json: the system prompt holds 2 fenced SDK blocks, where the tools:sdk section holds one: \$\.messages\[0\]\.content line 3: ```python; \$\.messages\[1\]\.content line 1: ```ts/,
    );
    const ruby = body([{ role: 'system', content: 'Write Ruby.\n```ruby\nclass Tools; end\n```' }]);
    expect(refusal(() => requestSubject(ruby, 'r.json'))).toMatch(
      /^r\.json: no system prompt holds a fenced SDK block in a language concord knows \(python, py, typescript, ts\): \$\.messages\[0\]\.content line 2: ```ruby/,
    );
    expect(
      refusal(() => requestSubject(body([{ role: 'system', content: SECTION }], [{ type: 'function' }]), 'r.json')),
    ).toMatch(/^r\.json: \$\.tools\[0\] names no function/);
  });
});

describe('an SDK file and its run_code function', () => {
  it('takes a section, or the bare code of a block', () => {
    expect(sdkFileSubject(SECTION, 'sdk.md', 'python').section).toBe(SECTION);
    const bare = sdkFileSubject('declare const tools: { a(): Promise<void> };', 'tools-sdk.ts', 'typescript');
    expect(bare.section).toBe('```typescript\ndeclare const tools: { a(): Promise<void> };\n```\n');
    // A section whose declarations stand in two fences beside an example is read as a request's would be.
    const split = sdkFileSubject(
      '```py\nawait a()\n```\n```py\nclass A(TypedDict):\n    x: int\n```\n```py\nasync def a() -> A: ...\n```\n',
      'sdk.md',
      'python',
    );
    expect(split.source).toBe('sdk.md (the declarations of its fences at lines 4 and 8, joined)');
    expect(readSdkSection(split.section).block?.body).toBe(
      'class A(TypedDict):\n    x: int\n\n\nasync def a() -> A: ...\n',
    );
  });

  it('reads bare code whose doc comments hold fences (a description with an example) as bare code', () => {
    // A TypeScript description indented two spaces: its fences are fences to Markdown, and one of them names `ts`.
    const typescript = [
      'type FetchArgs = { url: string };',
      'declare const tools: {',
      '  /** Fetch a page.',
      '  ```json',
      '  {"url": "https://example.org"}',
      '  ```',
      '  ```ts',
      '  await tools.fetch({ url })',
      '  ```',
      '  */',
      '  fetch(args: FetchArgs): Promise<string>;',
      '};',
      '',
    ].join('\n');
    for (const file of ['sdk.ts', 'sdk.txt', 'the SDK']) {
      const subject = sdkFileSubject(typescript, file, 'typescript');
      expect([subject.source, blockOf(subject)]).toEqual([file, typescript]);
    }
    // A module docstring at the left margin: its fences, even one naming python, are no SDK block.
    const python =
      '"""Stubs.\n\n```python\nawait tools.fetch({"url": u})\n```\n"""\nclass Tools:\n    async def fetch(self, args: dict) -> str: ...\n\ntools: Tools\n';
    expect(blockOf(sdkFileSubject(python, 'stubs', 'python'))).toBe(python);
    // Named as code, a file is its bare code even where it does not parse (the checks then say where it breaks).
    const broken = typescript.replace('url: string', 'url: string,,').replace(/ {2}```ts\n.*\n {2}```\n/, '');
    expect(blockOf(sdkFileSubject(broken, 'tools.d.ts', 'typescript'))).toBe(broken);
    expect(refusal(() => sdkFileSubject(broken, 'tools.txt', 'typescript'))).toMatch(/^tools\.txt: the SDK section /);
    // A section is still a section: prose, or a block alone, never reads as declarations.
    expect(sdkFileSubject(SECTION, 'sdk.md', 'python').section).toBe(SECTION);
    const alone = '```ts\ndeclare const tools: { a(): Promise<void> };\n```\n';
    expect(sdkFileSubject(alone, 'sdk.md', 'typescript').section).toBe(alone);
  });

  it("knows an SDK file's language by its name, else by the language its fences name", () => {
    expect(['sdk.py', 'sdk.pyi', 'SDK.PY', 'tools.d.ts', 'a.mts', 'a.cts'].map((f) => sdkFileLanguage(f, ''))).toEqual([
      'python',
      'python',
      'python',
      'typescript',
      'typescript',
      'typescript',
    ]);
    expect(sdkFileLanguage('sdk.md', SECTION)).toBe('python');
    expect(
      sdkFileLanguage(
        'sdk.md',
        'Types:\n```ts\ntype A = 1;\n```\nTools:\n```typescript\ndeclare const tools: {};\n```\n',
      ),
    ).toBe('typescript');
    expect(sdkFileLanguage('sdk.md', 'Ex:\n```ts\nx\n```\n```python\ny\n```\n')).toBeUndefined();
    expect(sdkFileLanguage('sdk.txt', 'declare const tools: {};')).toBeUndefined();
    expect(sdkFileLanguage('sdk.tsx', '')).toBeUndefined();
  });

  it('refuses a section with no SDK block, and a run_code file that is not one', () => {
    expect(refusal(() => sdkFileSubject('Prose.\n```\nan example\n```\n', 'sdk.md', 'python'))).toMatch(
      /^sdk\.md: the SDK section /,
    );
    expect(refusal(() => runCodeFile('{"name": "other"}', 'rc.json'))).toMatch(
      /^rc\.json: \$\.name is "other", not "run_code"/,
    );
    expect(runCodeFile(JSON.stringify(RUN_CODE), 'rc.json')).toMatchObject({ name: 'run_code' });
  });

  it('takes a function of another name when the backend names its code tool so, and says how when it does not', () => {
    const codemode = '{"name": "codemode", "description": "Runs JavaScript."}';
    expect(runCodeFile(codemode, 'rc.json', 'codemode')).toMatchObject({ name: 'codemode' });
    try {
      runCodeFile(codemode, 'rc.json');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CheckInputError);
      expect((error as CheckInputError).hint).toBe(
        `give the function that runs the backend's programs; when it is this one, name it: --code-tool "codemode" (codeTool in the API)`,
      );
    }
    expect(refusal(() => runCodeFile(JSON.stringify(RUN_CODE), 'rc.json', 'codemode'))).toMatch(
      /^rc\.json: \$\.name is "run_code", not "codemode"/,
    );
  });
});

describe('the request bodies of a snapshot file', () => {
  /** A snapshot file as a suite's toMatchSnapshot() leaves it, written out by hand in pretty-format's shape. */
  const SNAP = [
    '// Vitest Snapshot v1, https://vitest.dev/guide/snapshot.html',
    '',
    'exports[`agent > answers in one number 1`] = `42`;',
    '',
    'exports[`agent > sends the SDK 1`] = `',
    '{',
    '  "messages": [',
    '    {',
    `      "content": "${SECTION.replace(/[`\\]|\$\{/g, '\\$&')}",`,
    '      "role": "system",',
    '    },',
    '  ],',
    '  "tools": [],',
    '}',
    '`;',
    '',
    'exports[`agent > sends the SDK as JSON 1`] = `"' +
      body([{ role: 'system', content: SECTION }], []).replace(/[`\\]|\$\{/g, '\\$&') +
      '"`;',
    '',
    'exports[`agent > logs when 1`] = `',
    '{',
    '  "at": 2026-12-06T00:00:00.000Z,',
    '}',
    '`;',
    '',
  ].join('\n');

  it('reads each snapshot of a request body, or of its JSON text, named by the snapshot; the others are left out', () => {
    const subjects = snapshotViews(SNAP, 'agent.test.ts.snap');
    expect(subjects.map((subject) => [subject.source, blockOf(subjectOf(subject))])).toEqual([
      ['agent.test.ts.snap "agent > sends the SDK 1" $.messages[0].content', blockOf({ section: SECTION })],
      ['agent.test.ts.snap "agent > sends the SDK as JSON 1" $.messages[0].content', blockOf({ section: SECTION })],
    ]);
  });

  it('reads each snapshot of a text holding an SDK block as a section, in the language its fences name', () => {
    const prompts = [
      '// Vitest Snapshot v1, https://vitest.dev/guide/snapshot.html',
      '',
      `exports[\`agent > its prompt 1\`] = \`"${SECTION.replace(/[`\\]|\$\{/g, '\\$&')}"\`;`,
      '',
      'exports[`agent > its greeting 1`] = `"Hello."`;',
      '',
    ].join('\n');
    const [only, ...rest] = snapshotSectionViews(prompts, 'agent.test.ts.snap', undefined);
    expect(rest).toEqual([]);
    expect([only!.source, only!.language, blockOf(subjectOf(only!))]).toEqual([
      'agent.test.ts.snap "agent > its prompt 1"',
      'python',
      blockOf({ section: SECTION }),
    ]);
    // The request bodies of SNAP are no texts: none of its snapshots is a section.
    expect(refusal(() => snapshotSectionViews(SNAP, 'a.snap', undefined))).toMatch(
      /^a\.snap: none of its 4 snapshot\(s\) is a text holding a fenced SDK block/,
    );
    expect(snapshotSectionViews(SNAP, 'a.snap', undefined, undefined, undefined, true)).toEqual([]);
    const both = prompts.replace('"Hello."', '"Say:\n```ts\nx\n```\nor:\n```python\ny\n```"'.replace(/`/g, '\\`'));
    expect(refusal(() => snapshotSectionViews(both, 'b.snap', undefined))).toMatch(
      /^b\.snap "agent > its greeting 1": its fences name both languages/,
    );
  });

  it('refuses a file with no request among its snapshots, saying how many it holds and what it could not read', () => {
    const none = SNAP.replace(/exports\[`agent > sends[\s\S]*?`;\n/g, '');
    expect(refusal(() => snapshotViews(none, 'a.snap'))).toMatch(
      /^a\.snap: none of its 2 snapshot\(s\) is a chat request body; not read back: "agent > logs when 1" \(line \d+\): a value JSON does not have .* at line 2 of the snapshot\n {2}hint: snapshot the JSON text of the body/,
    );
    expect(snapshotViews(none, 'a.snap', 'run_code', true)).toEqual([]);
    // A request body it cannot read back is refused, in a folder too, rather than left out.
    const shaped = SNAP.replace('"tools": [],', '"system": "Answer like this:\n{\n  "a": 1\n}",\n  "tools": [],');
    for (const orNone of [false, true])
      expect(refusal(() => snapshotViews(shaped, 'c.snap', 'run_code', orNone))).toMatch(
        /^c\.snap: snapshot "agent > sends the SDK 1" \(line 5\) holds a chat request body that cannot be read back: a string that holds text shaped as an entry/,
      );
    expect(refusal(() => snapshotViews('// Vitest Snapshot v1\n', 'b.snap'))).toMatch(/^b\.snap: holds no snapshot/);
  });
});
