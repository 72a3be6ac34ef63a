import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { installedWithout } from '../../test/packed.js';
import { concordIn } from '../test/concord-cli.js';
import { projectWith } from '../test/project-files.js';

// From the packed tarball, in a project of its own: a tool answering more than the project lets one call carry.
const scenario = (expect: string) => `name: dump
description: A tool that answers with a long export.
runtimes: [typescript, python]
composition:
  - id: tools
    plugin: concord/tools
    config: { mode: code }
  - id: dump
    plugin: ../plugins/dump.mjs
  - id: agent
    plugin: concord/agent
    config: { persona: Brief. }
script:
  - user: Export?
  - assistant:
      run_code:
        description: export
        typescript: "try { return String(await tools.dump({})).length; } catch { return 'caught'; }"
        python: "try:\\n    return len(await tools.dump({}))\\nexcept ToolCallError:\\n    return 'caught'"
  - final: Done.
${expect}`;
const PLUGIN = `export default {
  name: 'dump',
  inject: ['tools'],
  apply(ctx) {
    ctx.tools.register({ name: 'dump', description: 'The whole export.', parameters: { type: 'object', properties: {} },
      execute: async () => 'x'.repeat(1_000) });
  },
};
`;

let root = '';
let bin = '';
beforeAll(async () => {
  root = await projectWith('bridge-limit', {
    // 1,000 characters are 1,002 bytes of JSON: two past the bound the project sets.
    'concord.config.yml': 'bridgeBytes: 1000\n',
    'scenarios/dump.yml': scenario(''),
    'plugins/dump.mjs': PLUGIN,
  });
  bin = await installedWithout(root, []);
}, 120_000);
afterAll(() => rm(root, { recursive: true, force: true }));

it('fails each pair whose tool answered past the project’s bridgeBytes, naming the bound; expected, it passes', {
  timeout: 180_000,
}, async () => {
  const gate = concordIn(
    () => root,
    150_000,
    () => bin,
  );
  const failed = gate({}, 'gate', '--update=new');
  expect(failed.status, failed.stdout + failed.stderr).toBe(1);
  for (const runtime of ['typescript', 'python'])
    expect(failed.stdout).toMatch(new RegExp(`✗ failed +dump × ${runtime} `));
  expect(failed.stdout).toContain(
    'expectations: run_code call 1 ended as bridge-limit: the result of tools.dump is 1,002 bytes of JSON, past the 1,000 a call may carry (bridgeBytes)',
  );

  await writeFile(join(root, 'scenarios', 'dump.yml'), scenario('expect:\n  runs: [bridge-limit]\n'));
  const expected = gate({}, 'gate', '--update=new');
  expect(expected.status, expected.stdout + expected.stderr).toBe(0);
  expect(expected.stdout.trimEnd().split('\n').at(-1)).toBe('gate: everything agrees');
});
