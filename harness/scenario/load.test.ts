import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineCounter, parseDocument, YAMLParseError } from 'yaml';
import { sourceAsset } from '../../runtimes/seam/package-root.js';
import { InputError } from './error.js';
import { loadScenario, parseScenario } from './load.js';
import { sourceExcerpt, syntaxErrorPlace } from './yaml-input.js';

const FILE = '/work/scenarios/demo.yml';

const VALID = `name: demo
description: A demo.
composition:
  - id: tools
    plugin: concord/tools
    config: { mode: code }
  - id: agent
    plugin: concord/agent
    config: { persona: Helpful. }
script:
  - user: Hello?
  - assistant:
      run_code:
        description: Say hi
        typescript: return 'hi';
        python: return 'hi'
      result_includes: [hi]
  - final: Hi.
expect:
  runs: [ok]
`;

function failure(source: string): InputError {
  try {
    parseScenario(FILE, source);
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected the scenario to be rejected');
}

describe('scenario files', () => {
  it('reads a valid scenario, defaulting to every runtime', () => {
    const scenario = parseScenario(FILE, VALID);
    expect(scenario.runtimes).toEqual(['typescript', 'python', 'pyodide', 'python-container']);
    expect(scenario.composition.map((e) => [e.id, e.plugin, e.line])).toEqual([
      ['tools', 'concord/tools', 4],
      ['agent', 'concord/agent', 7],
    ]);
    expect(scenario.script[1]).toMatchObject({
      kind: 'assistant',
      runCode: { programs: { python: "return 'hi'" } },
      resultIncludes: ['hi'],
      line: 12,
    });
    expect(scenario.expect.runs).toEqual(['ok']);
  });

  it("keeps a !!js expression in an entry's config as cordis's loader reads it, and refuses it or an unknown tag elsewhere", () => {
    const withExpression = VALID.replace(
      '    config: { persona: Helpful. }',
      '    config:\n      persona: Helpful.\n      region: !!js process.env.REGION',
    );
    expect(parseScenario(FILE, withExpression).composition[1]!.config).toEqual({
      persona: 'Helpful.',
      region: { __jsExpr: 'process.env.REGION' },
    });
    const outside = failure(VALID.replace('description: A demo.', 'description: !!js "A demo."'));
    expect([outside.line, outside.column]).toEqual([2, 19]);
    expect(outside.problem).toMatch(
      /^!!js is read only in a composition entry's config: cordis's loader evaluates it there as the app starts\n {2}2 \| description: !!js "A demo\."/,
    );
    const unknown = failure(
      VALID.replace('    config: { persona: Helpful. }', '    config: { persona: !js Helpful. }'),
    );
    expect([unknown.line, unknown.column]).toEqual([9, 24]);
    expect(unknown.problem).toMatch(
      /^unknown tag !js: a scenario is plain YAML; !!js \(an expression cordis's loader evaluates\) is read in a composition entry's config\n/,
    );
    expect(unknown.hint).toBe('remove the tag and write the value itself');
  });

  it('reads an alias as the value its anchor names, and says where an alias names nothing or the list it is in', () => {
    const shared = VALID.replace("        typescript: return 'hi';", "        typescript: &program return 'hi';")
      .replace(
        '  - final: Hi.',
        "  - assistant:\n      run_code:\n        description: Again\n        typescript: *program\n        python: return 'hi'\n  - final: Hi.",
      )
      .replace('runs: [ok]', 'runs: [ok, ok]');
    expect(parseScenario(FILE, shared).script[2]).toMatchObject({
      kind: 'assistant',
      runCode: { programs: { typescript: "return 'hi';" } },
    });
    const early = failure(
      VALID.replace('description: A demo.', 'description: *later').replace(
        '    config: { persona: Helpful. }',
        '    config: { persona: &later Helpful. }',
      ),
    );
    expect([early.line, early.column, early.problem]).toEqual([
      2,
      14,
      'scenario.description is the alias *later, and no &later comes before it',
    ]);
    const itself = failure(VALID.replace('expect:\n  runs: [ok]', 'expect:\n  runs: &runs [*runs]'));
    expect(itself.problem).toBe(
      'scenario.expect.runs[0] must be one of ok, exception, timeout, abort, worker-exit, invalid-output, output-limit, bridge-limit; found a list',
    );
  });

  it('names file, line and column of malformed YAML, with a hint', () => {
    const error = failure(VALID.replace('  - user: Hello?', '  - user: "Hello?'));
    expect(error.message).toMatch(/^\/work\/scenarios\/demo\.yml:\d+:\d+: not valid YAML/);
    expect(error.message).toContain('hint:');
  });

  it('puts a syntax error at the end of the file after the last character written, where the missing one goes', () => {
    // The parser places an unclosed list at the end of the input: past the last newline, on a line the file does not
    // show.
    const error = failure(`${VALID.trimEnd()}\ntags: [one, two\n\n`);
    const lastLine = VALID.trimEnd().split('\n').length + 1;
    expect([error.line, error.column]).toEqual([lastLine, 16]);
    expect(error.message).toContain(`  ${lastLine} | tags: [one, two\n     |                ^`);
  });

  it('shows a long line around the error, the caret under the column it names', () => {
    const excerpt = (text: string, col: number) => sourceExcerpt(text, 1, col).split('\n');
    const caretUnder = ([shown, caret]: string[]) => shown![caret!.indexOf('^')];
    // At the width the whole line shows; one past it, the line is cut with a mark where it goes on.
    const full = 'x'.repeat(159) + 'y';
    expect(excerpt(full, 160)).toEqual([`  1 | ${full}`, `    | ${' '.repeat(159)}^`]);
    const over = full + 'z';
    expect(excerpt(over, 1)).toEqual([`  1 | ${full}…`, '    | ^']);
    expect(caretUnder(excerpt(over, 161))).toBe('z');
    // Deep in a long line: a window around the column, marked on both sides.
    const long = 'a'.repeat(500) + 'B' + 'c'.repeat(500);
    const [shown, caret] = excerpt(long, 501);
    expect(shown).toMatch(/^ {2}1 \| …a+Bc+…$/);
    expect(shown!.length).toBe('  1 | '.length + 160 + 2);
    expect(caretUnder([shown!, caret!])).toBe('B');
    // A control character takes one column, as the caret counts it.
    expect(caretUnder(excerpt('a\u001b[2Kb: [', 6))).toBe('b');
    expect(excerpt('a\u001b[2Kb: [', 6)[0]).toBe('  1 | a?[2Kb: [');
  });

  it('names lists nested too deeply to parse where the parser gave up, with a hint', () => {
    const error = failure(`${VALID.trimEnd()}\nextra: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`);
    expect(error.message).toMatch(
      /:\d+:\d+: nested too deeply to read \(the parser ran out of stack here\)\n {2}\d+ \| …\[+…\n/,
    );
    expect(error.message).toContain('hint: nest lists and maps a few levels deep, not thousands');
  });

  it('moves only an error placed at or past the end of what is written', () => {
    const source = 'a: [x\n\n';
    const lines = new LineCounter();
    parseDocument(source, { lineCounter: lines });
    const at = (offset: number) =>
      syntaxErrorPlace(source, lines, new YAMLParseError([offset, offset + 1], 'BAD_INDENT', 'x'));
    // 'x' is at offset 4; the text ends at 5; the newlines are at 5 and 6; the input ends at 7.
    expect([4, 5, 6, 7].map(at)).toEqual([
      { line: 1, col: 5 },
      { line: 1, col: 6 },
      { line: 1, col: 6 },
      { line: 1, col: 6 },
    ]);
    expect(at(0)).toEqual({ line: 1, col: 1 });
  });

  it('rejects an unknown key at its position and lists the known ones', () => {
    const error = failure(VALID.replace('description: A demo.', 'description: A demo.\nruntimez: [python]'));
    expect([error.line, error.column]).toEqual([3, 1]);
    expect(error.problem).toBe('unknown key "runtimez" in scenario');
    expect(error.hint).toContain('runtimes');
  });

  it('rejects an unknown runtime name where it is written', () => {
    const error = failure(VALID.replace('description: A demo.', 'description: A demo.\nruntimes: [python, cobol]'));
    expect([error.line, error.column]).toEqual([3, 20]);
    expect(error.problem).toContain(
      'scenario.runtimes[1] must be one of typescript, python, pyodide, python-container',
    );
  });

  it('asks for both languages of a program', () => {
    const error = failure(VALID.replace("        python: return 'hi'\n", ''));
    expect(error.problem).toBe('scenario.script[1].assistant.run_code is missing the required key "python"');
    expect(error.line).toBe(14);
  });

  it('rejects two step kinds in one script item', () => {
    const error = failure(VALID.replace('  - final: Hi.', '  - final: Hi.\n    user: again'));
    expect(error.problem).toContain('has "user" beside "final"');
  });

  it('requires the name to match the file', () => {
    const error = failure(VALID.replace('name: demo', 'name: other'));
    expect(error.problem).toContain('differs from the file name "demo"');
    expect([error.line, error.column]).toEqual([1, 7]);
  });

  it('reserves the entry ids the gate fills in', () => {
    expect(failure(VALID.replace('id: tools', 'id: runtime')).problem).toBe('entry id "runtime" is reserved');
  });

  it('checks that the script runs from a user turn to a final answer', () => {
    expect(failure(VALID.replace('  - final: Hi.\n', '')).problem).toBe('the script must end with a final answer');
  });

  it('accepts a script of only its user turn (to be recorded), and nothing shorter', () => {
    const userOnly = VALID.slice(0, VALID.indexOf('  - assistant:')) + 'expect:\n  runs: [ok, ok]\n';
    expect(parseScenario(FILE, userOnly).script).toEqual([{ kind: 'user', text: 'Hello?', line: 11 }]);
    expect(failure(VALID.slice(0, VALID.indexOf('  - user:')) + '  - final: Hi.\n').problem).toBe(
      'the script must start with a user turn',
    );
    expect(failure(VALID.slice(0, VALID.indexOf('  - user:')) + '  []\n').problem).toBe(
      'scenario.script needs at least 1 item(s)',
    );
  });

  it('needs one expected outcome per run_code call', () => {
    expect(failure(VALID.replace('runs: [ok]', 'runs: [ok, timeout]')).problem).toContain(
      'lists 2 outcome(s) but the script makes 1',
    );
  });

  it('loads every committed scenario', async () => {
    const dir = sourceAsset('scenarios');
    const names = (await readdir(dir)).filter((n) => n.endsWith('.yml'));
    expect(names.length).toBeGreaterThanOrEqual(8);
    for (const name of names)
      await expect(loadScenario(join(dir, name))).resolves.toMatchObject({ name: name.replace('.yml', '') });
  });
});
