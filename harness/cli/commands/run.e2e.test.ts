import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../../runtimes/seam/package-root.js';

// The built CLI, run as a child process the way users run it.

const exec = promisify(execFile);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'concord-run-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function concord(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return concordWith({}, ...args);
}

async function concordWith(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [join(packageRoot(), 'bin/concord.mjs'), 'run', ...args], {
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

describe('concord run', () => {
  it('runs a TypeScript program against the default echo and fail tools', async () => {
    const program = await file(
      'default.ts',
      'const r: { a: number } = await tools.echo({ a: 1 });\ntry { await tools.fail({}); } catch (e) { console.log(e.toolName); }\nreturn r;',
    );
    const { code, stdout } = await concord('--runtime', 'typescript', program);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ value: { a: 1 }, logs: ['fail'], error: null });
  });

  it('binds the tools of a tools file and exits 0 when the program fails', async () => {
    const tools = await file(
      'tools.json',
      JSON.stringify([{ name: 'search', description: 'x', parameters: {} }, { name: 'failing-one' }]),
    );
    const program = await file(
      'tools.ts',
      'console.log(JSON.stringify(await tools.search({ q: "x" })));\nawait tools["failing-one"]({});',
    );
    const { code, stdout } = await concord('--runtime', 'typescript', '--tools', tools, program);
    expect(code).toBe(0);
    const printed = JSON.parse(stdout) as { value: unknown; logs: string[]; error: { kind: string; name: string } };
    expect(printed.value).toBeNull();
    expect(printed.logs).toEqual(['{"q":"x"}']);
    expect(printed.error).toMatchObject({ kind: 'exception', name: 'ToolCallError' });
  });

  it('runs a Python program in a local CPython process', async () => {
    const program = await file('program.py', 'r = await tools.echo({"a": 1})\nprint("got", r["a"])\nreturn r');
    const { code, stdout, stderr } = await concord('--runtime', 'python', program);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ value: { a: 1 }, logs: ['got 1'], error: null });
    expect(stderr).toBe('');
  });

  it('still takes the old name python-process for the local CPython process, and says the new one', async () => {
    const program = await file('old-name.py', 'return 1');
    const { code, stdout, stderr } = await concord('--runtime', 'python-process', program);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ value: 1, error: null });
    expect(stderr).toBe(
      'concord run: --runtime python-process is now called python, the name scenarios and the gate use; python-process still works\n',
    );
  });

  it('applies --timeout-ms', async () => {
    const program = await file('loop.ts', 'for (;;) {}');
    const { code, stdout } = await concord('--runtime', 'typescript', '--timeout-ms', '500', program);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ value: null, error: { kind: 'timeout' } });
  });

  it.each([
    [
      ['--runtime', 'cobol', 'PROGRAM'],
      /--runtime "cobol": unknown runtime \(known: typescript, python, pyodide\[:3\.X\], python-container\[:3\.X\]\)/,
    ],
    [['--runtime', 'typescript:3.11', 'PROGRAM'], /write typescript without a version/],
    [
      ['--runtime', 'pyodide:2.7', 'PROGRAM'],
      /write pyodide or pyodide:3\.X with 3\.X one of 3\.11, 3\.12, 3\.13, 3\.14/,
    ],
    [
      ['--runtime', 'typescript', '--timeout-ms', '-5', 'PROGRAM'],
      /expected a whole number of milliseconds from 1 to 3600000/,
    ],
    ...['typescript', 'python', 'python-container', 'pyodide'].map((runtime): [string[], RegExp] => [
      ['--runtime', runtime, '--timeout-ms', '99999999999', 'PROGRAM'],
      /--timeout-ms.*from 1 to 3600000/,
    ]),
    [['--runtime', 'typescript', 'missing.ts'], /missing\.ts: does not exist\n {2}hint: name a program file/],
    [['--runtime', 'typescript', '/dev/zero'], /\/dev\/zero: is not a regular file, not a program file/],
    [['PROGRAM'], /required option '--runtime <runtime>' not specified/],
  ])('exits 2 on bad usage: %j', async (args, message) => {
    const program = await file('ok.ts', 'return 1;');
    const resolved = args.map((arg) =>
      arg === 'PROGRAM' ? program : arg === 'missing.ts' ? join(dir, 'missing.ts') : arg,
    );
    const { code, stderr, stdout } = await concord(...resolved);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stdout).toBe('');
  });

  it('says in one line, as the gate does, that a runtime cannot run here, and exits 1', async () => {
    const program = await file('nowhere.py', 'return 1\n');
    // A closed port on loopback: no Docker engine answers there.
    const { code, stderr, stdout } = await concordWith(
      { DOCKER_HOST: 'tcp://127.0.0.1:9' },
      '--runtime',
      'python-container',
      program,
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^concord run: python-container cannot run here: no Docker engine answers \(DOCKER_HOST=tcp:\/\/127\.0\.0\.1:9 does not answer .*Install and start one with `npm run provision`\.\n$/,
    );
    expect(stdout).toBe('');
  });

  it('prints a value nested 100,000 deep on one line, and ends quietly when its reader goes', async () => {
    const program = await file(
      'deep.ts',
      'let x: unknown = [];\nfor (let i = 0; i < 100_000; i++) x = [x];\nreturn x;',
    );
    const whole = await concord('--runtime', 'typescript', program);
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stdout).toBe(`{"value":${'['.repeat(100_001)}${']'.repeat(100_001)},"logs":[],"error":null}\n`);
    // Read by `head`, which goes after 100 bytes: what is left has no one to read it, and that is no failure.
    const bin = join(packageRoot(), 'bin/concord.mjs');
    const piped = await exec('bash', [
      '-c',
      '"$0" "$1" run --runtime typescript "$2" | head -c 100 > /dev/null; echo "exit ${PIPESTATUS[0]}" >&2',
      process.execPath,
      bin,
      program,
    ]);
    expect(piped.stderr).toBe('exit 0\n');
  });

  it('exits 2 naming the JSON path of a bad tools file', async () => {
    const tools = await file('bad-tools.json', '[{"name": "ok"}, {"title": "no name"}]');
    const program = await file('ok2.ts', 'return 1;');
    const { code, stderr } = await concord('--runtime', 'typescript', '--tools', tools, program);
    expect(code).toBe(2);
    expect(stderr).toContain(`${tools}: $[1].name: expected a non-empty string`);
  });
});
