/** Something a check found wrong (or worth saying) about what a model was shown, or about one scenario × runtime. */
export interface Finding {
  check: string;
  /** Errors fail the gate; notes are printed only. */
  severity: 'error' | 'note';
  message: string;
  /**
   * Set when the check could not run at all (a note then): why, with the command that makes it run. A run
   * that skipped a check does not report that everything agrees.
   */
  skipped?: string;
}

// The ids of concord's checks, as findings, reports and `concord check` name them.
export const EXPECTATIONS = 'expectations';
export const COMMITTED_SECRETS = 'committed-secrets';
export const STUB_VALIDITY = 'stub-validity';
/** The findings of executing Python stubs as a module, beside compiling them (the stub-validity check's). */
export const STUB_IMPORT = 'stub-import';
export const RENDERER_FLOOR = 'renderer-floor';
export const LANGUAGE_AGREEMENT = 'language-agreement';
export const SDK_NAMES = 'sdk-names';
export const BOUND_NAMES = 'bound-names';
export const TYPECHECK_PROGRAMS = 'typecheck-programs';
/** The gate's adversarial probe of each renderer (a run-level step). */
export const PROBE = 'probe';
/** The SDK's size against the project's budget (a run-level step). */
export const SDK_BUDGET = 'sdk-budget';
/** The project's known findings (`known:` in concord.config.yml) that a run no longer met. */
export const KNOWN = 'known';
