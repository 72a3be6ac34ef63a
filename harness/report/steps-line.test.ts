import { expect, it } from 'vitest';
import type { RunSteps } from './outcome.js';
import { stepsLine } from './progress.js';

const steps = (floorApps: number, floorRendered: number, findings: RunSteps['findings'] = []): RunSteps => ({
  findings,
  probes: [],
  times: { rendererFloor: 12, probe: 0 },
  floorApps,
  floorRendered,
});

it('passes the renderer floor only when an app rendered the fixture, and says how many of them did', () => {
  expect(stepsLine(steps(3, 3), false)).toBe('✓ renderer-floor (3 app(s)) 12 ms');
  expect(stepsLine(steps(3, 1), false)).toBe(
    '✓ renderer-floor (1 of 3 app(s) rendered the fixture; see the notes for the others) 12 ms',
  );
  // No app booted (a plugin that never starts): the step judged nothing, so it is marked as skipped, not passed.
  expect(stepsLine(steps(3, 0), false)).toBe(
    '- renderer-floor (0 of 3 app(s) rendered the fixture; see the notes for the others) 12 ms',
  );
  const error = { check: 'renderer-floor', severity: 'error' as const, message: 'does not compile' };
  expect(stepsLine(steps(3, 2, [error]), false)).toBe(
    '✗ renderer-floor (2 of 3 app(s) rendered the fixture; see the notes for the others) 12 ms',
  );
  expect(stepsLine(steps(0, 0), false)).toBe('renderer-floor: no Python app selected');
});
