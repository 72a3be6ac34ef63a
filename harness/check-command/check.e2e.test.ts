import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import { installedWithout } from '../../test/packed.js';

/**
 * A team with its own backend and its own vitest suite, which already keeps the requests its backend sends a model:
 * concord installed from the packed tarball in a fresh project with no concord.config.yml and no cordis plugin.
 * `concord check` and `concord/vitest` judge those requests as the gate judges an app's.
 */

const RUN_CODE = (language: string) => ({
  type: 'function',
  function: {
    name: 'run_code',
    description: `Runs a ${language} program that calls tools.* and returns a JSON value.`,
    parameters: {
      type: 'object',
      properties: {
        code: { type: 'string', description: `The body of an async ${language} function.` },
        description: { type: 'string' },
      },
      required: ['code', 'description'],
    },
  },
});

const request = (language: 'Python' | 'TypeScript', fence: string, sdk: string) => ({
  model: 'a-model',
  messages: [
    {
      role: 'system',
      content: `You keep a glossary. Write ${language} for run_code; the tools are these.\n\n\`\`\`${fence}\n${sdk}\`\`\`\n`,
    },
    { role: 'user', content: 'What does insular mean?' },
  ],
  tools: [RUN_CODE(language)],
});

/** The TypeScript shape of a real renderer: tools as a mapped type over the keys of two maps. */
const MAPPED = `type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
interface ToolArgsMap { glossary_lookup: { word: string }; "glossary-export": { format: "csv" | "json" } }
interface ToolOutputMap { glossary_lookup: { word: string } & Record<string, JsonValue>; "glossary-export": { text: string } }
type ToolName = keyof ToolOutputMap;
declare const tools: { [K in ToolName]: (args: ToolArgsMap[K]) => Promise<ToolOutputMap[K]> };
declare class ToolCallError extends Error { readonly toolName: string }
`;

/** Python stubs that import NotRequired from typing (CPython 3.11 and later). */
const NOT_REQUIRED = `from typing import Protocol, TypedDict
from typing import NotRequired


class LookupArgs(TypedDict):
    word: str
    lang: NotRequired[str]


class Tools(Protocol):
    async def glossary_lookup(self, args: LookupArgs) -> dict:
        """Looks a word up."""


tools: Tools
`;

/** Python stubs whose TypedDict body CPython 3.9 evaluates: \`str | None\` raises there. */
const PIPE_NONE = `from typing import TypedDict


class LookupOutput(TypedDict):
    word: str
    meaning: str | None


class Tools:
    async def glossary_lookup(self, args: dict) -> LookupOutput:
        """Looks a word up."""


tools: Tools
`;

/** A runtime that binds the tools as `codemode`, and its SDK: function-typed properties of that object. */
const CODEMODE = `type GlossaryLookupInput = {
    word: string;
};
declare const codemode: {
\t/** Looks a word up. */
\tglossary_lookup: (input: GlossaryLookupInput) => Promise<unknown>;
};
`;

let root = '';
let bin = '';
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'concord-own-suite-'));
  bin = await installedWithout(root, []);
  await mkdir(join(root, 'requests'));
  await writeFile(join(root, 'requests', 'mapped.json'), JSON.stringify(request('TypeScript', 'ts', MAPPED), null, 2));
  await writeFile(
    join(root, 'requests', 'not-required.json'),
    JSON.stringify(request('Python', 'python', NOT_REQUIRED)),
  );
  await writeFile(join(root, 'requests', 'pipe-none.json'), JSON.stringify(request('Python', 'py', PIPE_NONE)));
  await writeFile(join(root, 'broken.json'), '{"messages": [');
  await writeFile(join(root, 'codemode.json'), JSON.stringify(request('TypeScript', 'typescript', CODEMODE)));
  await writeFile(join(root, 'codemode.d.ts'), CODEMODE);
  // The same SDK where such a backend writes it: unfenced in its code tool's description, the system prompt its own.
  await writeFile(
    join(root, 'in-description.json'),
    JSON.stringify({
      messages: [{ role: 'system', content: 'You answer questions about the glossary.' }],
      tools: [
        {
          type: 'function',
          function: {
            name: 'codemode',
            description: `Runs code that calls the tools.\n\nAvailable:\n${CODEMODE}\nWrite an async arrow function in JavaScript.`,
            parameters: {
              type: 'object',
              properties: { code: { type: 'string', description: 'The JavaScript function.' } },
            },
          },
        },
      ],
    }),
  );
  await writeFile(
    join(root, 'codemode-tool.json'),
    JSON.stringify({
      name: 'codemode',
      description: 'Runs an async arrow function written in JavaScript; it calls the tools on codemode.',
      parameters: { type: 'object', properties: { code: { type: 'string', description: 'The JavaScript function.' } } },
    }),
  );
}, 120_000);
afterAll(() => rm(root, { recursive: true, force: true }));

function run(command: string, ...args: string[]): { status: number | null; output: string } {
  const done = spawnSync(process.execPath, [command, ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...process.env, CI: '', NO_COLOR: '1' },
  });
  return { status: done.status, output: done.stdout + done.stderr };
}

it('concord check --tools-object and --code-tool read a backend that names its tools object and code tool its own way', {
  timeout: 120_000,
}, () => {
  const unread = run(bin, 'check', '--request', 'codemode.json');
  expect(unread.status, unread.output).toBe(1);
  expect(unread.output).toContain(
    'offers no tool: it declares none of `declare const tools: …`, a class or a namespace named `tools`, or functions of its own, but binds `codemode`; if your runtime binds the tools under another name, give it: --tools-object codemode',
  );
  const read = run(bin, 'check', '--request', 'codemode.json', '--tools-object', 'codemode');
  expect(read.status, read.output).toBe(0);
  expect(read.output).toContain('concord check: 1 SDK(s), no finding');
  const refused = run(bin, 'check', '--request', 'codemode.json', '--tools-object', 'code-mode');
  expect(refused.status, refused.output).toBe(2);
  expect(refused.output).toContain(
    '--tools-object: "code-mode" is no name a TypeScript program can bind the tools under',
  );

  // The function that runs programs is named `codemode` too, and speaks of JavaScript.
  const sdk = ['check', '--sdk', 'codemode.d.ts', '--language', 'typescript', '--run-code', 'codemode-tool.json'];
  // It takes a `code` string: found unnamed, and named alike; a name it lacks is bad input.
  for (const named of [[], ['--code-tool', 'codemode']]) {
    const read = run(bin, ...sdk, '--tools-object', 'codemode', ...named);
    expect(read.status, read.output).toBe(0);
    expect(read.output).toContain('✓ codemode.d.ts (typescript): no finding');
  }
  const misnamed = run(bin, ...sdk, '--tools-object', 'codemode', '--code-tool', 'search,execute');
  expect(misnamed.status, misnamed.output).toBe(2);
  expect(misnamed.output).toContain('codemode-tool.json: the request has no function named "search" or "execute"');

  const described = run(
    bin,
    'check',
    '--request',
    'in-description.json',
    '--tools-object',
    'codemode',
    '--code-tool',
    'codemode',
  );
  expect(described.status, described.output).toBe(0);
  expect(described.output).toContain('✓ in-description.json $.tools[0].description (typescript): no finding');
});

it("concord check --sdk reads back what concord sdk writes, fenced or bare, its language told by the file's name or fences", {
  timeout: 120_000,
}, async () => {
  // A description with an example in a fence of its own: in the bare TypeScript file it is a fence to Markdown.
  const tools = [
    {
      name: 'glossary_lookup',
      description: 'Looks a word up.\n\nFor example:\n```json\n{"word": "insular"}\n```\nReturns its meaning.',
      parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
    },
  ];
  await writeFile(join(root, 'glossary-tools.json'), JSON.stringify(tools));
  const written = (...args: string[]) => {
    const sdk = run(bin, 'sdk', '--language', 'typescript', '--tools', 'glossary-tools.json', ...args);
    expect(sdk.status, sdk.output).toBe(0);
    return sdk.output;
  };
  await writeFile(join(root, 'glossary.d.ts'), written('--no-fence'));
  await writeFile(join(root, 'glossary.md'), written());
  for (const file of ['glossary.d.ts', 'glossary.md']) {
    const checked = run(bin, 'check', '--sdk', file, '--tools', 'glossary-tools.json');
    expect(checked.status, checked.output).toBe(0);
    expect(checked.output).toContain(`✓ ${file} (typescript): no finding`);
  }
  // Several at once, as files or as a folder of them, each in the language its name or fences say.
  await mkdir(join(root, 'sdks'));
  await writeFile(join(root, 'sdks', 'glossary.d.ts'), written('--no-fence'));
  await writeFile(join(root, 'sdks', 'glossary.md'), written());
  await writeFile(join(root, 'sdks', 'notes.json'), '{}');
  for (const paths of [['glossary.d.ts', 'glossary.md'], ['sdks']]) {
    const both = run(bin, 'check', '--sdk', ...paths, '--tools', 'glossary-tools.json');
    expect(both.status, both.output).toBe(0);
    expect(both.output).toContain('concord check: 2 SDK(s), no finding');
  }
  // A folder with no SDK in it, not even a snapshot of a prompt, is bad input, never "0 SDK(s), no finding".
  await mkdir(join(root, 'no-sdk'));
  await writeFile(
    join(root, 'no-sdk', 'a.test.ts.snap'),
    '// Vitest Snapshot v1, https://vitest.dev/guide/snapshot.html\n\nexports[`a 1`] = `"Hello."`;\n',
  );
  const none = run(bin, 'check', '--sdk', 'no-sdk');
  expect(none.status, none.output).toBe(2);
  expect(none.output).toContain('no-sdk/a.test.ts.snap shows no SDK: no code block');
  // Prose is never made code, whatever --language says.
  await writeFile(join(root, 'prompt.txt'), 'You keep a glossary. Answer briefly, and cite the entry.\n');
  const prose = run(bin, 'check', '--sdk', 'prompt.txt', '--language', 'typescript');
  expect(prose.status, prose.output).toBe(2);
  expect(prose.output).toContain('prompt.txt shows no SDK: no code block');
  expect(prose.output).not.toContain('typecheck');
});

it("concord check --request reads the request bodies a team's suite snapshots with toMatchSnapshot()", {
  timeout: 120_000,
}, async () => {
  await mkdir(join(root, 'snapped'));
  await writeFile(
    join(root, 'snapped', 'agent.test.ts'),
    `import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const request = (name: string) => JSON.parse(readFileSync(\`\${name}.json\`, 'utf8'));
it('sends the glossary SDK', () => {
  expect(request('requests/mapped')).toMatchSnapshot();
  expect(JSON.stringify(request('requests/mapped'), null, 2)).toMatchSnapshot();
});
it('sends the SDK of its codemode object', () => {
  expect(request('codemode')).toMatchSnapshot();
});
it('answers', () => {
  expect({ answer: 'insular', at: new Date(0) }).toMatchSnapshot();
});
it('prompts', () => {
  expect(request('requests/mapped').messages[0].content).toMatchSnapshot();
});
`,
  );
  const suite = run(join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'snapped/agent.test.ts');
  expect(suite.status, suite.output).toBe(0);
  const snap = join('snapped', '__snapshots__', 'agent.test.ts.snap');
  // Three snapshots of bodies (one its JSON text) and one of a prompt; one of an answer is no SDK. The codemode SDK's
  // finding is found.
  const checked = run(bin, 'check', '--request', join('snapped', '__snapshots__'));
  expect(checked.status, checked.output).toBe(1);
  expect(checked.output).toContain(
    `✓ ${snap} "sends the glossary SDK 1" $.messages[0].content (typescript): no finding`,
  );
  expect(checked.output).toContain(
    `✓ ${snap} "sends the glossary SDK 2" $.messages[0].content (typescript): no finding`,
  );
  expect(checked.output).toContain(
    `✗ ${snap} "sends the SDK of its codemode object 1" $.messages[0].content (typescript): 1 finding(s)`,
  );
  expect(checked.output).toContain(`✓ ${snap} "prompts 1" (typescript): no finding`);
  expect(checked.output).toContain('offers no tool');
  expect(checked.output).toContain('concord check: 4 SDK(s), 1 with findings: FAILED');
  const named = run(bin, 'check', '--request', snap, '--tools-object', 'codemode');
  expect(named.output).toContain(
    `✓ ${snap} "sends the SDK of its codemode object 1" $.messages[0].content (typescript): no finding`,
  );
  // A snapshot file is read for what each snapshot holds, whichever option names it.
  const prompt = run(bin, 'check', '--sdk', snap);
  expect(prompt.status, prompt.output).toBe(1);
  expect(prompt.output).toContain(`✓ ${snap} "prompts 1" (typescript): no finding`);
  expect(prompt.output).toContain('concord check: 4 SDK(s), 1 with findings: FAILED');
});

// The floor's own interpreter must judge: CPython 3.9 is the floor image (CI provides it).
(await Host.with('docker')).describe('concord check and concord/vitest in a project of its own', () => {
  it('concord check: the mapped-type SDK passes; NotRequired and X | None fail at floor 3.9 naming interpreter, line and column, and pass at 3.11', {
    timeout: 300_000,
  }, () => {
    const mapped = run(bin, 'check', '--request', 'requests/mapped.json');
    expect(mapped.status, mapped.output).toBe(0);
    expect(mapped.output).toContain('✓ requests/mapped.json $.messages[0].content (typescript): no finding');

    const floor39 = run(bin, 'check', '--request', 'requests/not-required.json', 'requests/pipe-none.json');
    expect(floor39.status, floor39.output).toBe(1);
    expect(floor39.output).toMatch(
      /error stub-import: the SDK block of requests\/not-required\.json \$\.messages\[0\]\.content compiles but fails when executed as a module on \S+ 3\.(?:9|10) \(CPython 3\.\d+\.\d+, Unicode 13\.0\.0, [^)]+\)(?: and \d+ more \([^)]+\))?: ImportError at line 2, column 20: cannot import name 'NotRequired'/,
    );
    expect(floor39.output).toMatch(
      /error stub-import: the SDK block of requests\/pipe-none\.json \$\.messages\[0\]\.content compiles but fails when executed as a module on [^\n]*3\.9[^\n]*TypeError at line 6, column 18: unsupported operand type\(s\) for \|/,
    );
    expect(floor39.output).toContain('concord check: 2 SDK(s), 2 with findings: FAILED');

    const floor311 = run(bin, 'check', '--request', 'requests', '--floor', '3.11');
    expect(floor311.status, floor311.output).toBe(0);
    expect(floor311.output).toContain('concord check: 3 SDK(s), no finding');
  });

  it('concord check refuses what is not a request with exit 2, naming the file and the place', async () => {
    const broken = run(bin, 'check', '--request', 'broken.json');
    expect(broken.status).toBe(2);
    expect(broken.output).toContain('broken.json: the request is not valid JSON (line 1, column 15)');
    const unknown = run(bin, 'check', '--sdk', 'broken.json', '--language', 'ruby');
    expect(unknown.status).toBe(2);
    expect(unknown.output).toMatch(/--language <language>' argument 'ruby' is invalid/);
    // A pipe among the bodies is refused at once, not waited on for good.
    await mkdir(join(root, 'piped'));
    expect(spawnSync('mkfifo', [join(root, 'piped', 'body.json')]).status).toBe(0);
    const piped = run(bin, 'check', '--request', 'piped');
    expect(piped.status, piped.output).toBe(2);
    expect(piped.output).toContain('nothing given shows an SDK; not read: 1 × a pipe, socket or device');
  });

  it('concord/vitest: toPassConcordChecks in the team’s own suite, .not included; a failure lists the findings', {
    timeout: 300_000,
  }, async () => {
    await writeFile(
      join(root, 'requests.test.ts'),
      `import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { concordMatchers } from 'concord/vitest';

expect.extend(concordMatchers);
const request = (name: string) => JSON.parse(readFileSync(\`requests/\${name}.json\`, 'utf8'));

it('sends an SDK that passes', async () => {
  await expect(request('mapped')).toPassConcordChecks({ floor: '3.9' });
});
it('a NotRequired import does not pass at 3.9', async () => {
  await expect(request('not-required')).not.toPassConcordChecks({ floor: '3.9' });
});
it('passes at 3.11', async () => {
  await expect(request('not-required')).toPassConcordChecks({ floor: '3.11' });
});
it('checks an SDK section without a request', async () => {
  await expect({ section: 'declare const tools: { a(args: {}): Promise<void> };', language: 'typescript' }).toPassConcordChecks();
});
it('fails, listing what it found', async () => {
  await expect(request('pipe-none')).toPassConcordChecks({ floor: '3.9' });
});
`,
    );
    await writeFile(
      join(root, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2023',
          types: ['node'],
          noEmit: true,
        },
        include: ['requests.test.ts'],
      }),
    );
    // The matcher is typed where the suite imports concord/vitest.
    const typed = run(join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.');
    expect(typed.status, typed.output).toBe(0);
    const suite = run(join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'requests.test.ts');
    expect(suite.status, suite.output).toBe(1);
    expect(suite.output).toMatch(/Tests\s+1 failed \| 4 passed/);
    expect(suite.output).toContain("concord's checks found");
    expect(suite.output).toMatch(
      /error stub-import: the SDK block of the request \$\.messages\[0\]\.content compiles but fails/,
    );
  });
});
