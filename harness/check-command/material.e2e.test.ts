import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import { installedWithout } from '../../test/packed.js';

/**
 * A team pointing `concord check`, installed from the packed tarball, at the material its suite keeps, in each shape
 * real Code Mode backends keep it (test/material/, written for these tests): no false finding, the true ones found.
 */

let root = '';
let bin = '';
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'concord-material-'));
  bin = await installedWithout(root, []);
  await cp(join(import.meta.dirname, 'test', 'material'), join(root, 'material'), { recursive: true });
}, 120_000);
afterAll(() => rm(root, { recursive: true, force: true }));

function check(...args: string[]): { status: number | null; output: string } {
  const done = spawnSync(process.execPath, [bin, 'check', ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...process.env, CI: '', NO_COLOR: '1' },
  });
  return { status: done.status, output: done.stdout + done.stderr };
}

describe('concord check on the material of real backends', () => {
  it('reads each shape with no false finding', { timeout: 300_000 }, () => {
    const codemode = check(
      '--sdk',
      'material/native-beside-code',
      'material/snap-descriptions',
      '--tools-object',
      'codemode',
    );
    expect(codemode.status, codemode.output).toBe(0);
    expect(codemode.output).toContain(
      '✓ material/native-beside-code/call-options.json $.tools[0].description (typescript): no finding',
    );
    expect(codemode.output).toContain('concord check: 3 SDK(s), no finding');

    const api = check('--request', 'material/two-code-tools/tools-list.json', '--tools-object', 'api');
    expect(api.status, api.output).toBe(0);
    expect(api.output).toContain(
      '✓ material/two-code-tools/tools-list.json $.result.tools[1].description (typescript): no finding, 1 note(s)',
    );

    const prompts = check(
      '--sdk',
      'material/module-catalog',
      'material/code-agent/python-types.md',
      'material/code-agent/stop-word.md',
    );
    expect(prompts.status, prompts.output).toBe(0);
    expect(prompts.output).toContain('concord check: 3 SDK(s), no finding');
  });

  it('finds what is truly wrong: JSON type names in stubs, functions declared only in comments', {
    timeout: 300_000,
  }, () => {
    const found = check('--sdk', 'material/code-agent/json-type-names.md', 'material/comments-only');
    expect(found.status, found.output).toBe(1);
    expect(found.output).toMatch(/error stub-import: .*NameError at line 1, column 20: name 'string' is not defined/);
    expect(found.output).toContain('error sdk-names: the SDK block of material/comments-only/prompt.md offers no tool');
  });

  it('a folder of 20 prompts, 4 of them Code Mode: 4 verdicts and one line for the 16 others, exit 0', {
    timeout: 300_000,
  }, () => {
    const twenty = check('--sdk', 'material/twenty-prompts');
    expect(twenty.status, twenty.output).toBe(0);
    expect(twenty.output.match(/^✓ /gm)).toHaveLength(4);
    expect(twenty.output).toContain(
      'no SDK in 16 file(s) (material/twenty-prompts/01-greeter.md, material/twenty-prompts/02-translator.md, material/twenty-prompts/03-summarizer.txt and 13 more): not Code Mode prompts',
    );
    expect(twenty.output).toContain('concord check: 4 SDK(s), no finding');
    // A folder of prompts none of which is Code Mode is told so, exit 2.
    const none = check('--sdk', 'material/twenty-prompts/01-greeter.md', 'material/twenty-prompts/05-python-tutor.md');
    expect(none.status, none.output).toBe(2);
    expect(none.output).toContain('nothing given shows an SDK; no SDK in 2 file(s)');
  });
});

// The seed's Python lane imports NotRequired: only an interpreter of the floor (CPython 3.9, an image CI provides)
// can say it fails there.
(await Host.with('docker')).describe("a suite's snapshot folders", () => {
  it('a prompt with the tools file beside it is one request; a Python lane importing NotRequired fails at 3.9', {
    timeout: 300_000,
  }, () => {
    const suite = check('--sdk', 'material/suite-layout');
    expect(suite.status, suite.output).toBe(1);
    expect(suite.output).toContain(
      '✓ material/suite-layout/keep-a-note/system-prompt.expected.md (typescript): no finding',
    );
    expect(suite.output).toMatch(
      /error stub-import: the SDK block of material\/suite-layout\/python-lane\/system-prompt\.expected\.md compiles but fails when executed as a module on [^\n]*3\.9[^\n]*ImportError at line 2, column 20: cannot import name 'NotRequired'/,
    );
    expect(suite.output).toContain(
      'no SDK in 1 file(s) (material/suite-layout/say-hello/system-prompt.expected.md): not Code Mode prompts',
    );
    expect(suite.output).toContain(
      'not read: 2 × a .jsonl file, 2 × JSON that is neither a chat request body nor a list of tools',
    );
    expect(check('--sdk', 'material/suite-layout', '--floor', '3.11').status).toBe(0);
  });
});
