// `concord/vitest`: concord's checks as a matcher of the team's own vitest suite, over the requests its tests already
// build or keep. vitest is an optional peer: only its types are named here.
//
//   import { concordMatchers } from 'concord/vitest';
//   expect.extend(concordMatchers);
//   await expect(request).toPassConcordChecks({ floor: '3.9' });
import { type CheckOptions, type CheckResult, checkRequest, checkSdk, type SdkInput } from './check.js';

/** What the matcher accepts: a chat request body (object or JSON text), or an SDK section (its language optional). */
export type ConcordSubject = string | object | SdkInput;

/** An SDK given as `{ section }`: no request body has a `section` (its language, when given, is checked by checkSdk). */
const isSdkInput = (value: unknown): value is SdkInput =>
  typeof value === 'object' && value !== null && typeof (value as { section?: unknown }).section === 'string';

/** The lines a failing expectation shows: the findings as `concord check` prints them. */
function said(result: CheckResult): string {
  return result.lines.map((line) => `  ${line}`).join('\n');
}

export const concordMatchers = {
  /**
   * Passes when concord's checks find no error in what `received` shows a model: the SDK section of a request (or an
   * `{ section, language?, runCode? }`, its language by default the one its block names), the functions that run
   * programs, the stubs from the floor up. A failure lists the
   * findings; `.not` passes when there is one.
   */
  async toPassConcordChecks(received: unknown, options: CheckOptions = {}) {
    const result = isSdkInput(received)
      ? await checkSdk(received, options)
      : await checkRequest(received as string | object, options);
    const errors = result.findings.filter((f) => f.severity === 'error').length;
    return {
      pass: result.ok,
      message: () =>
        result.ok
          ? `expected concord's checks to find a problem, but every check passed${result.lines.length > 0 ? `:\n${said(result)}` : ''}`
          : `concord's checks found ${errors} problem(s):\n${said(result)}`,
    };
  },
};

declare module 'vitest' {
  interface Matchers<T = any> {
    /** concord's checks on a chat request body, or on `{ section, language?, runCode? }`: see `concord check`. */
    toPassConcordChecks(options?: CheckOptions): Promise<T>;
  }
}

export type { CheckOptions, CheckResult, SdkInput };
