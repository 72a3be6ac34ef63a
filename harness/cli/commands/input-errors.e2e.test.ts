import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sourceAsset } from '../../../runtimes/seam/package-root.js';
import { inSelection } from '../../pairs/select.js';
import { loadScenarios } from '../../scenario/discover.js';
import { describeFailure } from '../fail.js';

/** A TypeScript-only scenario that loads (nothing here runs it). */
const VALID = `name: NAME
description: A demo.
runtimes: [typescript]
composition:
  - id: tools
    plugin: concord/tools
    config: { mode: code }
  - id: agent
    plugin: concord/agent
    config: { persona: Helpful. }
script:
  - user: Hello?
  - final: Hi.
`;

let root = '';
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'concord-input-'));
  await mkdir(join(root, 'scenarios'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const scenario = (file: string, text: string) => writeFile(join(root, 'scenarios', file), text);
const gate = (...args: string[]) =>
  spawnSync(process.execPath, [sourceAsset('bin/concord.mjs'), 'gate', '--root', root, ...args], {
    encoding: 'utf8',
    env: { ...process.env, CI: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });

/**
 * What the gate's scenario loading refuses, in-process: the message the command line would print (through the
 * same failure text) and its exit code. The cases read by the gate itself show that it prints this, exit 2, no stack.
 */
async function refusedByLoading(place: string): Promise<string> {
  const refused = await loadScenarios(join(root, 'scenarios'), root).then(
    () => undefined,
    (error: unknown) => describeFailure(error),
  );
  expect(refused?.message).toContain(place);
  expect(refused?.message).not.toMatch(/\n\s+at /);
  expect(refused?.exit).toBe(2);
  expect((await readdir(root)).filter((n) => n !== 'scenarios')).toEqual([]);
  return refused!.message;
}

/** Exit 2, one message on stderr naming `place`, no stack, and nothing written into the project. */
async function refused(result: ReturnType<typeof gate>, place: string): Promise<string> {
  expect(result.stderr).toContain(place);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.status).toBe(2);
  expect((await readdir(root)).filter((n) => !['scenarios', '.concord', 'out'].includes(n))).toEqual([]);
  return result.stderr;
}

describe('bad input to the gate exits 2 naming the place', () => {
  it('two files declaring one scenario name, naming both', async () => {
    await scenario('x.yml', VALID.replace('NAME', 'x'));
    await scenario('x.yaml', VALID.replace('NAME', 'x'));
    const stderr = await refused(gate(), join(root, 'scenarios', 'x.yml'));
    expect(stderr).toContain(join(root, 'scenarios', 'x.yaml'));
    expect(stderr).toContain('keep one of x.yaml and x.yml');
  });

  it('a YAML syntax error at its real line and column, with the source line and a caret', async () => {
    await scenario('bad.yml', 'name: bad\ndescription: A demo.\nruntimes: [typescript\nscript: []\n');
    const stderr = await refusedByLoading(`${join(root, 'scenarios', 'bad.yml')}:4:1: not valid YAML`);
    expect(stderr).toContain('  4 | script: []\n    | ^');
  });

  it('an alias bomb', async () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      ...'bcdefg'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefg'[i]}`).join(', ')}]`),
    ].join('\n      ');
    await scenario(
      'bomb.yml',
      VALID.replace('NAME', 'bomb').replace('config: { mode: code }', `config:\n      mode: code\n      ${bomb}`),
    );
    await refusedByLoading(`${join(root, 'scenarios', 'bomb.yml')}:1:1: its anchors and aliases expand too far`);
  });

  it('an oversized scenario', async () => {
    const text = VALID.replace('NAME', 'big') + `# ${'x'.repeat(2 * 1024 * 1024)}\n`;
    await scenario('big.yml', text);
    await refusedByLoading(
      `${join(root, 'scenarios', 'big.yml')}: is ${Buffer.byteLength(text)} bytes, more than a scenario may be (1048576)`,
    );
  });

  it('a scenario that is a folder', async () => {
    await mkdir(join(root, 'scenarios', 'odd.yml'));
    await refusedByLoading(`${join(root, 'scenarios', 'odd.yml')}: is a folder, not a scenario`);
  });

  it('a selection of zero pairs, naming the filter that emptied it', async () => {
    await scenario('only-ts.yml', VALID.replace('NAME', 'only-ts'));
    await refused(
      gate('--runtime', 'python'),
      '--runtime python: nothing to run: no scenario declares this runtime (declared: typescript)',
    );
    await refused(
      gate('--scenario', 'only-ts', '--runtime', 'pyodide'),
      '--runtime pyodide: nothing to run: the scenario(s) only-ts declare(s) this runtime',
    );
    const empty = [1, 2].find((index) => !inSelection({ shard: { index, count: 2 } }, 'only-ts', 'typescript'))!;
    // An empty shard of a good selection is no input error: CI splits blindly, and the merged verdict counts every
    // pair.
    const shard = gate('--shard', `${empty}/2`);
    expect(shard.stdout).toContain(
      `--shard ${empty}/2: none of the 1 scenario × runtime pair(s) of the selection falls in this shard; nothing to run here`,
    );
    expect(shard.status).toBe(0);
  });

  it('.concord being a file, and --junit-file naming a folder, before anything runs', async () => {
    await scenario('only-ts.yml', VALID.replace('NAME', 'only-ts'));
    await writeFile(join(root, '.concord'), 'not a folder\n');
    await refused(gate(), `${join(root, '.concord')}: is a file, not a folder`);
    expect(await readFile(join(root, '.concord'), 'utf8')).toBe('not a folder\n');
    await rm(join(root, '.concord'));
    await mkdir(join(root, 'out'));
    const stderr = await refused(
      gate('--reporter', 'junit', '--junit-file', join(root, 'out')),
      `${join(root, 'out')}: --junit-file names a folder, not a file`,
    );
    expect(stderr).toContain(`--junit-file ${join(root, 'out', 'junit.xml')}`);
  });
});
