import { expect, it } from 'vitest';
import { pythonNameRules } from '../../codemode/sdk/identifiers/index.js';
import { pythonStringLiteral } from '../../codemode/sdk/python/escape.js';
import { renderPythonSdk } from '../../codemode/sdk/python/index.js';
import type { PythonVersion } from '../../codemode/tools/types.js';
import { Host } from '../../test/host-requirements.js';
import { findInterpreters, runPythonJson } from './local.js';
import { HOSTILE_NAMES, HOSTILE_TEXT, hostileToolSet, NEWER_THAN_13, obj, randomToolSets } from './test/tool-sets.js';

const interpreters = findInterpreters();
const python = await Host.with('python3');
const floor = await Host.with('python3.9');
console.log(`python SDK compiled with: ${interpreters.map((i) => i.executable).join(', ') || 'no interpreter found'}`);

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

python.describe('the Python SDK compiles on every interpreter here', () => {
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
          if (tools.filter((tool) => tool.name === name).length === 1)
            expect(results[i]!.methods![name], name).toBe(doc);
        }
      });
      const hostileKeys = new Set(results[0]!.keys!.flat());
      for (const name of HOSTILE_NAMES) expect(hostileKeys.has(name), JSON.stringify(name)).toBe(true);
    });
  }

  const python39 = interpreters.find((i) => i.version === '3.9');
  floor.it('floor 3.9: names from newer Unicode are never bare, so python3.9 compiles the block', {}, () => {
    const text = renderPythonSdk(
      NEWER_THAN_13.map((char) => ({
        name: `x${char}`,
        description: '',
        parameters: obj({ [`y${char}`]: { type: 'string' } }),
      })),
    );
    for (const char of NEWER_THAN_13) {
      expect(text).toContain(`# await tools[${pythonStringLiteral(`x${char}`)}]`);
      expect(text).not.toMatch(new RegExp(`^\\s+y${char}:`, 'mu'));
    }
    // The same names rendered against a newer floor are bare, and python3.9 refuses them: the pin matters.
    const unpinned = renderPythonSdk([{ name: `x${NEWER_THAN_13[0]}`, description: '', parameters: obj({}) }], {
      pythonFloor: '3.15',
    });
    const [pinned, newer] = runPythonJson<Inspection[]>(python39!, INSPECT_SCRIPT, [text, unpinned]);
    expect(pinned!.error).toBeUndefined();
    expect(newer!.error).toMatch(/SyntaxError/);
  });
});

python.describe('string literals read back exactly', () => {
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
