import { describe, expect, it } from 'vitest';
import { readSdkSection } from '../../contract/sdk-section.js';
import { readRequest } from './request-views.js';
import { blockOf, noneOf, RUN_CODE, refusal, SECTION, subjectOf, viewsOf } from './test/read.js';

const body = (messages: unknown, tools: unknown = [RUN_CODE]) => JSON.stringify({ messages, tools });

/** The one view a request body shows, as a subject. */
const requestSubject = (text: string, file: string, codeTools?: string[]) =>
  subjectOf(viewsOf(readRequest(text, file, { codeTools }))[0]!);
/** Why a request body shows no SDK. */
const requestNone = (text: string, file: string) => noneOf(readRequest(text, file));

describe('a chat request body as concord check reads it', () => {
  it('takes the system message holding the fenced block and the run_code function; native tools are no part of the SDK', () => {
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
      codeTools: ['run_code'],
      registered: undefined,
    });
  });

  it('takes the function that runs programs by the name given, else by the `code` string it takes', () => {
    const execute = { ...RUN_CODE, function: { ...RUN_CODE.function, name: 'execute_code' } };
    const native = { type: 'function', function: { name: 'a', parameters: {} } };
    const text = body([{ role: 'system', content: SECTION }], [execute, native]);
    expect(requestSubject(text, 'r.json', ['execute_code'])).toMatchObject({
      runCode: { name: 'execute_code', description: 'Runs a Python program.' },
      codeTools: ['execute_code'],
      registered: undefined,
    });
    expect(requestSubject(text, 'r.json')).toMatchObject({
      codeTools: ['execute_code'],
      runCodeSource: 'r.json $.tools[0]',
    });
    // A name given that the request lacks is bad input naming the functions it has.
    expect(refusal(() => requestSubject(text, 'r.json', ['codemode']))).toMatch(
      /^r\.json: the request has no function named "codemode"; its functions are "execute_code", "a"\n {2}hint: name the functions that run programs/,
    );
    // Without one, the SDK is read alone, and a note says the code tool went unchecked.
    const natives = requestSubject(body([{ role: 'system', content: SECTION }], [native]), 'r.json');
    expect([natives.runCode, natives.registered, natives.unchecked?.[0]]).toEqual([
      undefined,
      undefined,
      expect.stringMatching(/^r\.json has no function that runs programs/),
    ]);
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
    const subject = requestSubject(body([{ role: 'user', content: 'Hi' }], [tool]), 'r.json', ['glossary_code']);
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
    // Example programs alone declare nothing: the request shows no SDK.
    const examples = describedAs('Runs Python, as in:\n```python\nx = 1\nx\n```\nor:\n```python\nawait a()\n```\n');
    expect(requestNone(body([{ role: 'system', content: 'Be brief.' }], [examples]), 'r.json')).toBe(
      'its code blocks are example programs: none declares a tool',
    );
    expect(requestNone(body([{ role: 'user', content: 'Hi' }], [examples]), 'r.json')).toBe(
      'its code blocks are example programs: none declares a tool',
    );
    // Two blocks that both declare are not one SDK: bad input naming each.
    const two = describedAs(
      `Runs Python.\n${SECTION}and:\n\`\`\`python\nclass More:\n    x: int\n\`\`\`\n\`\`\`ts\ntype A = 1;\n\`\`\`\n`,
    );
    expect(refusal(() => requestSubject(body([{ role: 'user', content: 'Hi' }], [two]), 'r.json'))).toMatch(
      /the run_code description holds 3 fenced block\(s\) but not one SDK block/,
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
  });

  it('reads a text that starts with a byte order mark, as a file an editor wrote and a test read, as without it', () => {
    const mark = '\uFEFF';
    const subject = requestSubject(mark + body([{ role: 'system', content: SECTION }]), 'r.json');
    expect([subject.source, subject.section]).toEqual(['r.json $.messages[0].content', SECTION]);
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

  it('refuses, naming the file and the place: not JSON, no conversation, two SDK blocks, a nameless function', () => {
    expect(refusal(() => requestSubject('{"messages": [', 'r.json'))).toMatch(
      /^r\.json: the request is not valid JSON \(line 1, column 15\)/,
    );
    expect(refusal(() => requestSubject('[]', 'r.json'))).toMatch(/^r\.json: \$ is not a JSON object/);
    expect(refusal(() => requestSubject('{}', 'r.json'))).toMatch(
      /^r\.json: \$\.messages is missing or not a list \(and so are \$\.input, \$\.prompt and \$\.contents\)/,
    );
    const two = body([
      { role: 'system', content: SECTION },
      { role: 'system', content: '```ts\ndeclare const tools: {};\n```' },
    ]);
    expect(refusal(() => requestSubject(two, 'r.json'))).toMatch(
      /^r\.json: the system prompt holds 2 fenced SDK blocks, where the tools:sdk section holds one: r\.json \$\.messages\[0\]\.content line 3: ```python; r\.json \$\.messages\[1\]\.content line 1: ```ts/,
    );
    expect(
      refusal(() => requestSubject(body([{ role: 'system', content: SECTION }], [{ type: 'function' }]), 'r.json')),
    ).toMatch(/^r\.json: \$\.tools\[0\] names no function/);
  });

  it('says why a request shows no SDK: no system prompt, no block, a language concord does not read', () => {
    expect(requestNone(body([{ role: 'user', content: SECTION }]), 'r.json')).toBe(
      'no system prompt, and no code tool whose description holds an SDK',
    );
    expect(requestNone(body([{ role: 'system', content: 'No SDK here.' }]), 'r.json')).toBe('no SDK block');
    const ruby = body([{ role: 'system', content: 'Write Ruby.\n```ruby\nclass Tools; end\n```' }]);
    expect(requestNone(ruby, 'r.json')).toBe(
      'its code blocks name no language concord reads (python, py, typescript, ts)',
    );
    // One example program in a fence naming Python is no SDK either.
    const example = body([{ role: 'system', content: 'Like so:\n```python\nprint(1 + 1)\n```' }]);
    expect(requestNone(example, 'r.json')).toBe('its code blocks are example programs: none declares a tool');
  });
});
