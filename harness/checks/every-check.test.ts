import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderSdkSection } from '../../codemode/run-code/sdk-section.js';
import { runCodeWireTool } from '../../codemode/run-code/wire-tool.js';
import { packageRoot } from '../../runtimes/seam/package-root.js';
import { checkRequest } from '../check-command/check.js';
import { concordMatchers } from '../check-command/vitest.js';
import { runGate } from '../gate/gate.js';
import { projectAt } from '../project/root.js';
import { Session } from '../session.js';
import { CHECKS } from './index.js';
import type { Check } from './types.js';

// One list of checks runs wherever concord checks what a model was shown: the gate, on each scenario × runtime, and
// `concord check`, `checkRequest` and the matcher, on what a team's tests keep. These tests read the list itself.

let work = '';
const session = new Session({ pyodides: [] });
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'concord-every-check-'));
});
afterAll(async () => {
  await session.dispose();
  await rm(work, { recursive: true, force: true });
});

/** A request body as a team's test keeps it: the reference backend's Python section and its run_code tool. */
const LOOKUP = { name: 'lookup', description: 'Finds a word.', parameters: { type: 'object', properties: {} } };
const REQUEST = {
  messages: [
    { role: 'system', content: renderSdkSection('python', [LOOKUP]) },
    { role: 'user', content: 'Find a word.' },
  ],
  tools: [{ type: 'function', function: runCodeWireTool('python') }],
};

/** Runs `body` with every check of CHECKS watched: the ids of the checks whose `run` was called. */
async function watched<T>(body: () => Promise<T>): Promise<{ result: T; ran: string[] }> {
  const ran: string[] = [];
  const runs = CHECKS.map((check) => check.run);
  CHECKS.forEach((check, i) => {
    (check as { run: Check['run'] }).run = ((input: never) => {
      ran.push(check.id);
      return (runs[i] as (input: never) => unknown)(input);
    }) as Check['run'];
  });
  try {
    return { result: await body(), ran };
  } finally {
    CHECKS.forEach((check, i) => {
      (check as { run: Check['run'] }).run = runs[i]!;
    });
  }
}

/** A gate of one small scenario on the TypeScript worker, in folders of its own. */
const gate = () =>
  runGate({
    project: projectAt(packageRoot()),
    snapshotsDir: join(work, 'snapshots'),
    pendingRoot: join(work, 'pending'),
    selection: { scenarios: ['mode-both'], runtimes: ['typescript'] },
    update: 'none',
    ci: false,
    cache: false,
    stabilityRerun: false,
    color: false,
    out: () => {},
  });

describe('the one list of checks', () => {
  it('runs every check in concord check, or names once why it skips', { timeout: 120_000 }, async () => {
    const { result, ran } = await watched(() => checkRequest(REQUEST, { session, root: work }));
    const skipped = result.skipped.map((skip) => skip.check);
    expect([...ran, ...skipped].sort()).toEqual(CHECKS.map((check) => check.id).sort());
    for (const skip of result.skipped) expect(skip.why, skip.check).toMatch(/^it /);
    expect(new Set(skipped).size).toBe(skipped.length);
  });

  it('runs every check in the gate', { timeout: 180_000 }, async () => {
    const { ran } = await watched(gate);
    expect([...new Set(ran)].sort()).toEqual(CHECKS.map((check) => check.id).sort());
  });

  it('runs a check added to the list in the gate, concord check and the matcher, with no other change', {
    timeout: 180_000,
  }, async () => {
    const added: Check = {
      id: 'added-check',
      run: ({ view }) => [
        { check: 'added-check', severity: 'error', message: `saw ${view.requests.length} request(s)` },
      ],
    };
    (CHECKS as Check[]).push(added);
    try {
      const checked = await checkRequest(REQUEST, { session, root: work });
      expect(checked.lines).toContain('error added-check: saw 1 request(s)');
      const matched = await concordMatchers.toPassConcordChecks(REQUEST, { session, root: work });
      expect(matched.pass).toBe(false);
      expect(matched.message()).toContain('added-check: saw 1 request(s)');
      const gated = await gate();
      expect(gated.pairs[0]!.findings.map((f) => f.check)).toContain('added-check');
    } finally {
      (CHECKS as Check[]).pop();
    }
  });
});
