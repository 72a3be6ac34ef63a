import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolSetArbitrary } from '../../codemode/schema/arbitrary.js';
import { listChain, objectChain, oneOfChain } from '../../codemode/schema/deep-schemas.js';
import type { PythonVersion, ToolDefinition } from '../../codemode/tools/types.js';
import { pythonNameRules } from '../../codemode/sdk/identifiers/index.js';
import { pythonStringLiteral } from '../../codemode/sdk/python/escape.js';
import { renderPythonSdk } from '../../codemode/sdk/python/index.js';
import { findInterpreters, runPythonJson } from './local.js';

const interpreters = findInterpreters();
console.log(`python SDK compiled with: ${interpreters.map((i) => i.executable).join(', ') || 'no interpreter found'}`);

const HOSTILE_TEXT = [
  'plain',
  'ends with a quote"',
  'triple """ inside and \'\'\' too',
  'back\\slash at the end\\',
  'NUL\0 ESC\x1b DEL\x7f NEL\x85 VT\x0b FF\f SUB\x1a',
  'CR\ronly and CRLF\r\nand LF\n',
  'separators\u2028line\u2029paragraph',
  'lone \ud800 and \udfff surrogates',
  'bidi \u202e override \u2066 isolate',
  '# -*- coding: latin-1 -*-',
  '\\N{BULLET} \\x41 \\u0041 {braces} %s',
];

const NEWER_THAN_13 = ['\u{10570}', '\u{1e290}', '\u{1e4d0}', '\u1c89'];

const HOSTILE_NAMES = [
  ...NEWER_THAN_13.map((char) => `x${char}`),
  ...NEWER_THAN_13,
  '\ufb01le', '\uff46\uff4f\uff4f', 'e\u0301', '\u00b5', '\u019bx', '\u0264',
  'class', 'async', 'await', 'None', 'True', 'nonlocal', '__peg_parser__', 'match', 'case', 'type', 'print',
  '_', '__', '___', '__debug__', '__private', '__init__', '__class__', 'self', 'args', 'tools', 'Tools',
  'ToolCallError', 'TypedDict', 'Any', '\u1100', '\u1161', '\u0301x', '3d', '', ' ', 'a-b', 'with space',
  '\u3164', 'a\u200d', 'a\ufe00', '\u{1f600}', 'x'.repeat(300),
];

const obj = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });

/** A tool set built to break the Python SDK: every rule of the renderer is pushed somewhere in it. */
function hostileToolSet(): ToolDefinition[] {
  const fields = Object.fromEntries(HOSTILE_NAMES.map((name, i) => [name, { type: 'string', description: HOSTILE_TEXT[i % HOSTILE_TEXT.length] }]));
  const literalUnion = { oneOf: Array.from({ length: 5000 }, (_, i) => ({ const: `v${i}\u2028"` })) };
  const typeUnion = { oneOf: Array.from({ length: 5000 }, (_, i) => ({ type: 'array', items: { const: i } })) };
  const objectUnion = { oneOf: Array.from({ length: 300 }, (_, i) => obj({ [HOSTILE_NAMES[i % HOSTILE_NAMES.length]!]: { type: 'integer' } })) };
  const tools: ToolDefinition[] = HOSTILE_NAMES.map((name, i) => ({
    name,
    description: HOSTILE_TEXT[i % HOSTILE_TEXT.length]!,
    parameters: obj({ [name]: { type: 'integer' }, ok: { type: 'boolean' } }, ['ok']),
    output: i % 2 === 0 ? obj(fields) : undefined,
  }));
  tools.push(
    { name: 'deep_lists', description: '250-deep', parameters: obj({ a: listChain(250) }), output: listChain(250) },
    { name: 'unions', description: '', parameters: obj({ literals: literalUnion, types: typeUnion, objects: objectUnion }) },
    { name: 'one_of_chain', description: '', parameters: obj({ a: oneOfChain(20_000) }) },
    { name: 'deep_objects', description: '', parameters: objectChain(400, 'class'), output: objectChain(400, '\u1161') },
    { name: 'numbers', description: '', parameters: obj({ n: { enum: [1e300, -1e21, 2 ** 53 + 2, 0.1, -0, Number.MAX_VALUE] } }) },
    { name: 'broken', description: 'schema outside the subset', parameters: { type: 'object', properties: { a: { anyOf: [] } } } },
  );
  return tools;
}

function randomToolSets(count: number): ToolDefinition[][] {
  return fc.sample(toolSetArbitrary({ maxTools: 6, maxDepth: 4 }), { numRuns: count, seed: 20_260_815 });
}

function floorFor(version: string): PythonVersion {
  return (Number(version.split('.')[1]) < 9 ? version : '3.9') as PythonVersion;
}

/**
 * Compiles every source in one process; also reports, per source, the methods of `Tools` with their
 * docstrings and the keys of every TypedDict, read back from the AST.
 */
const INSPECT_SCRIPT = String.raw`
import ast, json, sys
def inspect(src):
    try:
        compile(src, "tools_sdk.py", "exec")
    except BaseException as error:
        return {"error": "%s: %s" % (type(error).__name__, error)}
    methods, keys = {}, []
    for node in ast.parse(src).body:
        if isinstance(node, ast.ClassDef) and node.name == "Tools":
            for item in node.body:
                if isinstance(item, ast.AsyncFunctionDef):
                    methods[item.name] = ast.get_docstring(item, clean=False)
        elif isinstance(node, ast.ClassDef) and any(getattr(b, "id", "") == "TypedDict" for b in node.bases):
            keys.append([s.target.id for s in node.body if isinstance(s, ast.AnnAssign)])
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            keys.append([ast.literal_eval(k) for k in node.value.args[1].keys])
    return {"methods": methods, "keys": keys}
print(json.dumps([inspect(src) for src in json.loads(sys.stdin.read())]))
`;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;

/** The docstring value a description should read back as: lines indented, lone surrogates as visible text. */
function expectedDocstring(description: unknown): string | null {
  const text = typeof description === 'string' ? description : '';
  if (text === '') return null;
  return text
    .replace(LONE_SURROGATE, (unit) => `\\u${unit.charCodeAt(0).toString(16)}`)
    .split(/\r\n|\r|\n/)
    .map((line, n) => (n === 0 || line === '' ? line : `        ${line}`))
    .join('\n');
}

interface Inspection {
  error?: string;
  methods?: Record<string, string | null>;
  keys?: string[][];
}

describe.skipIf(interpreters.length === 0)('the Python SDK compiles on every interpreter here', () => {
  const hostile = hostileToolSet();
  const random = randomToolSets(60);

  const toolSets = [hostile, ...random];
  const sourcesByFloor = new Map<PythonVersion, string[]>();
  const sourcesFor = (floor: PythonVersion): string[] => {
    let sources = sourcesByFloor.get(floor);
    if (sources === undefined) {
      sources = toolSets.map((tools) => renderPythonSdk(tools, { pythonFloor: floor }));
      sourcesByFloor.set(floor, sources);
    }
    return sources;
  };

  for (const interpreter of interpreters) {
    it(`python ${interpreter.version} (floor ${floorFor(interpreter.version)})`, () => {
      const floor = floorFor(interpreter.version);
      const sources = sourcesFor(floor);
      const results = runPythonJson<Inspection[]>(interpreter, INSPECT_SCRIPT, sources);
      const failures = results.flatMap((result, i) => (result.error ? [`tool set ${i}: ${result.error}`] : []));
      expect(failures).toEqual([]);

      // What the interpreter read back is what the tools said: method names and docstrings.
      const rules = pythonNameRules(floor);
      toolSets.forEach((tools, i) => {
        const expected = new Map<string, string | null>();
        for (const tool of tools) {
          const name = String(tool.name);
          if (!rules.isBareName(name) || (name.startsWith('__') && name.endsWith('__') && name.length > 4)) continue;
          if (!expected.has(name)) expected.set(name, expectedDocstring(tool.description));
        }
        expect(Object.keys(results[i]!.methods!).sort(), `tool set ${i}`).toEqual([...expected.keys()].sort());
        for (const [name, doc] of expected) {
          if (tools.filter((tool) => tool.name === name).length === 1) expect(results[i]!.methods![name], name).toBe(doc);
        }
      });
      const hostileKeys = new Set(results[0]!.keys!.flat());
      for (const name of HOSTILE_NAMES) expect(hostileKeys.has(name), JSON.stringify(name)).toBe(true);
    });
  }

  const python39 = interpreters.find((i) => i.version === '3.9');
  // Locally a missing python3.9 skips this; in CI (`CI` set) the floor must be there, so it fails instead.
  it.skipIf(!python39 && !process.env.CI)('floor 3.9: names from newer Unicode are never bare, so python3.9 compiles the block', () => {
    expect(python39, 'CI must provide a local python3.9 (the floor): install it or put it on PATH').toBeDefined();
    const text = renderPythonSdk(NEWER_THAN_13.map((char) => ({ name: `x${char}`, description: '', parameters: obj({ [`y${char}`]: { type: 'string' } }) })));
    for (const char of NEWER_THAN_13) {
      expect(text).toContain(`# await tools[${pythonStringLiteral(`x${char}`)}]`);
      expect(text).not.toMatch(new RegExp(`^\\s+y${char}:`, 'mu'));
    }
    // The same names rendered against a newer floor are bare, and python3.9 refuses them: the pin matters.
    const unpinned = renderPythonSdk([{ name: `x${NEWER_THAN_13[0]}`, description: '', parameters: obj({}) }], { pythonFloor: '3.15' });
    const [pinned, newer] = runPythonJson<Inspection[]>(python39!, INSPECT_SCRIPT, [text, unpinned]);
    expect(pinned!.error).toBeUndefined();
    expect(newer!.error).toMatch(/SyntaxError/);
  });
});

describe.skipIf(interpreters.length === 0)('string literals read back exactly', () => {
  it('every awkward value survives pythonStringLiteral → ast.literal_eval', () => {
    const values = [...HOSTILE_TEXT, ...HOSTILE_NAMES, '\ud83d', '\ude00x', 'a\ud83d\ude00b'];
    const interpreter = interpreters.at(-1)!;
    const readBack = runPythonJson<string[]>(
      interpreter,
      'import ast, json, sys\nprint(json.dumps([ast.literal_eval(s) for s in json.loads(sys.stdin.read())]))',
      values.map(pythonStringLiteral),
    );
    expect(readBack).toEqual(values);
  });
});
