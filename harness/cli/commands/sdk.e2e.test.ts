import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderSdk, renderSdkSection } from '../../../codemode/run-code/sdk-section.js';
import { sourceAsset } from '../../../runtimes/seam/package-root.js';

const dir = mkdtempSync(join(tmpdir(), 'concord-sdk-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Runs the built CLI: `concord sdk …`. */
function sdk(...args: string[]) {
  const result = spawnSync(process.execPath, [sourceAsset('bin/concord.mjs'), 'sdk', ...args], { encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const TOOLS = [
  {
    name: 'lookup',
    description: 'Finds a user by id.',
    parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  },
  {
    name: 'add',
    description: 'Adds.',
    parameters: { type: 'object', properties: { a: { type: 'number' } } },
    output: { type: 'number' },
  },
];
const good = file('tools.json', JSON.stringify(TOOLS));

describe('concord sdk', () => {
  it('prints with --stats what the SDK costs in all and for each tool, costliest first, instead of the SDK', () => {
    const { code, stdout, stderr } = sdk('--language', 'python', '--tools', good, '--stats');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^python SDK of 2 tools: [\d,]+ o200k_base tokens · [\d,]+ bytes, [\d,]+ tokens per tool$/,
    );
    expect(lines[1]).toMatch(
      /^ {2}described \(the tools' own descriptions\): [\d,]+ tokens; the types, signatures and names the SDK writes: [\d,]+$/,
    );
    expect(lines[2]).toMatch(/^ {2}the SDK with no tool \(usage and ToolCallError\): [\d,]+ tokens · [\d,]+ bytes$/);
    // lookup's description and its TypedDict make it the costlier one.
    expect(lines.slice(4).map((line) => line.trim().split(/\s+/)[3])).toEqual(['lookup', 'add']);
    expect(stdout).not.toContain('class Tools');
  });

  it.each(['python', 'typescript'] as const)('prints the fenced %s section the prompt gets', (language) => {
    const { code, stdout, stderr } = sdk('--language', language, '--tools', good);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(renderSdkSection(language, TOOLS) + '\n');
  });

  it('passes --floor to the Python renderer, and prints the bare SDK file with --no-fence', () => {
    // U+10570 is a letter from Unicode 14.0: a bare name on CPython 3.11 (Unicode 14.0), not on 3.9 (13.0).
    const newer = [{ name: '\u{10570}x', description: 'New letter.', parameters: {} }];
    const path = file('newer.json', JSON.stringify(newer));
    const floor39 = sdk('--language', 'python', '--tools', path, '--floor', '3.9', '--no-fence').stdout;
    const floor311 = sdk('--language', 'python', '--tools', path, '--floor', '3.11', '--no-fence').stdout;
    expect(floor39).toBe(renderSdk('python', newer, { pythonFloor: '3.9' }));
    expect(floor311).toBe(renderSdk('python', newer, { pythonFloor: '3.11' }));
    expect(floor39).not.toBe(floor311);
  });

  it('names the file when it cannot be read, and exits 2', () => {
    const missing = join(dir, 'missing.json');
    const { code, stdout, stderr } = sdk('--language', 'python', '--tools', missing);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`${missing}: cannot read: does not exist`);
    // A pipe is refused at once rather than waited on.
    const pipe = join(dir, 'pipe.json');
    expect(spawnSync('mkfifo', [pipe]).status).toBe(0);
    const piped = sdk('--language', 'python', '--tools', pipe);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain(`${pipe}: cannot read: is not a regular file, not a tools file`);
  });

  it('names the file and the line for JSON that does not parse, and exits 2', () => {
    const broken = file('broken.json', '[1,\n 2');
    const { code, stdout, stderr } = sdk('--language', 'python', '--tools', broken);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`${broken}: not valid JSON: line 2, column 3:`);
  });

  it('names the file and the JSON path of every malformed tool, and exits 2', () => {
    const malformed = file(
      'malformed.json',
      JSON.stringify([
        TOOLS[0],
        3,
        { name: 7, description: 'x', parameters: {} },
        { ...TOOLS[1], extra: 1 },
        { name: 'lookup', description: 'again', parameters: {} },
        { name: 'n', description: 'no schema' },
      ]),
    );
    const { code, stdout, stderr } = sdk('--language', 'typescript', '--tools', malformed);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([
      `concord sdk: ${malformed}: $[1]: expected an object {name, description, parameters, output}`,
      `concord sdk: ${malformed}: $[2].name: expected a string`,
      `concord sdk: ${malformed}: $[3].extra: unknown key (known: name, description, parameters, output)`,
      `concord sdk: ${malformed}: $[4].name: duplicate tool name "lookup" (first at $[0])`,
      `concord sdk: ${malformed}: $[5].parameters: missing: give the JSON schema of the arguments ({} accepts any)`,
    ]);
  });

  it('with --strict reports every part with no type, with its path, and exits 1; without, degrades and prints', () => {
    const loose = [
      { name: 'a', description: '', parameters: { type: 'object', properties: { x: { type: 'strin' } } } },
      {
        name: 'b',
        description: '',
        parameters: { type: 'object' },
        output: { oneOf: [{ type: 'string' }, { $ref: '#/$defs/missing' }] },
      },
    ];
    const path = file('loose.json', JSON.stringify(loose));
    const strict = sdk('--language', 'python', '--tools', path, '--strict');
    expect(strict.code).toBe(1);
    expect(strict.stdout).toBe('');
    const lines = strict.stderr.trim().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^concord sdk: ${path}: \\$\\[0\\]\\.parameters\\.properties\\.x\\.type: `));
    expect(lines[1]).toMatch(
      new RegExp(
        `^concord sdk: ${path}: \\$\\[1\\]\\.output\\.oneOf\\[1\\]\\["\\$ref"\\]: \\$ref "#/\\$defs/missing" points to nothing`,
      ),
    );
    expect(lines[2]).toBe(
      'concord sdk: 2 places with no type; without --strict each becomes an unknown type (Any / unknown)',
    );
    expect(lines).toHaveLength(3);
    expect(sdk('--language', 'python', '--tools', path).code).toBe(0);
    expect(sdk('--language', 'python', '--tools', good, '--strict').code).toBe(0);
  });

  it('refuses an unknown language and a malformed floor with exit 2', () => {
    const language = sdk('--language', 'ruby', '--tools', good);
    expect(language.code).toBe(2);
    expect(language.stderr).toContain("argument 'ruby' is invalid. Allowed choices are python, typescript.");
    const floor = sdk('--language', 'python', '--tools', good, '--floor', 'three');
    expect(floor.code).toBe(2);
    expect(floor.stderr).toContain('--floor: expected a CPython version such as 3.9, got "three"');
  });

  it('explains itself with --help', () => {
    const { code, stdout } = sdk('--help');
    expect(code).toBe(0);
    for (const option of ['--language', '--tools', '--floor', '--strict', '--no-fence', 'Exit codes'])
      expect(stdout).toContain(option);
  });
});
