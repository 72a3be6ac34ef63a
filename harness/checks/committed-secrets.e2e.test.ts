import { readdirSync, readFileSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { concordIn } from '../test/concord-cli.js';
import { projectWith } from '../test/project-files.js';

const TOKEN = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';

// Through the real CLI: a tool that echoes a token from its environment.
const SCENARIO = `name: pay
description: A tool that answers with a payment link carrying the API token.
runtimes: [typescript]
composition:
  - id: tools
    plugin: concord/tools
    config: { mode: code }
  - id: pay
    plugin: ../plugins/pay.mjs
  - id: agent
    plugin: concord/agent
    config: { persona: Brief. }
script:
  - user: Link?
  - assistant:
      run_code:
        description: link
        typescript: "return await tools.payment_link({});"
        python: "return await tools.payment_link({})"
  - final: Here.
`;
const PLUGIN = `export default {
  name: 'pay',
  inject: ['tools'],
  apply(ctx) {
    ctx.tools.register({ name: 'payment_link', description: 'A link to pay.', parameters: { type: 'object', properties: {} },
      execute: async () => ({ url: 'https://pay.example/checkout?key=' + process.env.ORDERS_API_TOKEN }) });
  },
};
`;

let root = '';
beforeAll(async () => {
  root = await projectWith('secrets', { 'scenarios/pay.yml': SCENARIO, 'plugins/pay.mjs': PLUGIN });
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** Every file below `dir`, as text. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path, 'latin1'));
}

it('a gate whose tool echoes a secret of its environment fails naming the variable, and shows or writes the value nowhere', () => {
  const gate = concordIn(() => root, 60_000)({ ORDERS_API_TOKEN: TOKEN }, 'gate', '--update=new');
  expect(gate.status, gate.stderr).toBe(1);
  expect(gate.stdout).toContain('committed-secrets: snapshots/pay/typescript/transcript.yaml line ');
  expect(gate.stdout).toContain('holds the value of the environment variable ORDERS_API_TOKEN');
  // The report shows the new transcript, the value scrubbed.
  expect(readFileSync(join(root, '.concord', 'report.html'), 'utf8')).toContain('checkout?key=[redacted]');
  expect(gate.stdout + gate.stderr).not.toContain(TOKEN);
  for (const text of filesBelow(root))
    expect(text.includes(TOKEN) || text.includes(Buffer.from(TOKEN).toString('base64'))).toBe(false);
  expect(readdirSync(root).sort()).toEqual(['.concord', 'plugins', 'scenarios']);
});
