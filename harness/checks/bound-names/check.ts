import { type AgentService, RUN_CODE_TOOL } from '../../../contract/backend.js';
import { observeRuns } from '../../../runtimes/seam/observe.js';
import type { CodeRuntime, RunRequest, RunResult } from '../../../runtimes/seam/types.js';
import { assemble, bootAssembly, CANNED_MODEL_PLUGIN, composeWithModel } from '../../assembly/assemble.js';
import { SDK_FILE } from '../../snapshot/transcript.js';
import { cachedSdkNames } from '../sdk-names/index.js';
import type { Check, CheckInput, Finding } from '../types.js';
import { pythonClassNames } from './declared-names.js';
import { platformGlobals } from './js-globals.js';
import { BOUND, type ProbeReport, pythonProbe, readProbeReport, typescriptProbe } from './probes.js';

const ID = 'bound-names';
/** The probe's own time budget: a scenario may shrink the runtime's budget to test timeouts. */
const PROBE_TIMEOUT_MS = 30_000;

export interface BoundNamesOptions {
  /** Puts something between the booted runtime and the probe (tests use it to build a leaking runtime). */
  wrap?: (request: RunRequest, run: (request: RunRequest) => Promise<RunResult>) => Promise<RunResult>;
}

/**
 * Boots the scenario's composition on its runtime (the gate's runtimes are pooled, so this is the very
 * runtime the scenario ran on) with a model that asks for one `run_code` call holding a probe program, so
 * the probe takes the backend's own path from its agent to `ctx.codeRuntime`; the result is read at the
 * runtime seam. Python: the globals are exactly `tools` and `ToolCallError`, and each class the SDK declares
 * is a NameError. TypeScript: the program receives exactly those two values, no SDK type name is reachable
 * as a value, and the global object holds nothing beyond a fresh worker thread's globals.
 */
export function boundNamesCheck(options: BoundNamesOptions = {}): Check {
  return {
    id: ID,
    async run({ scenario, runtime, files, session }: CheckInput): Promise<Finding[]> {
      const language = runtime.language;
      const sdk = files.get(SDK_FILE[language]);
      if (sdk === undefined) return [];
      const declared =
        language === 'python'
          ? pythonClassNames(sdk).filter((n) => n !== 'ToolCallError')
          : (await cachedSdkNames(language, sdk, session)).declared.map((d) => d.name);
      const code = language === 'python' ? pythonProbe(declared) : typescriptProbe(declared);
      const responses = [
        {
          content: '',
          toolCalls: [{ id: 'probe-1', name: RUN_CODE_TOOL, arguments: { code, description: 'bound-names probe' } }],
        },
        { content: 'probe done', toolCalls: [] },
      ];

      const app = await bootAssembly(
        await assemble(composeWithModel(scenario, runtime, { plugin: CANNED_MODEL_PLUGIN, config: { responses } })),
        runtime.session,
      );
      let run: RunResult | undefined;
      let failure: string | undefined;
      try {
        const stop = observeRuns(app.service<CodeRuntime>('codeRuntime'), async (request, next) => {
          const budgeted = { ...request, timeoutMs: PROBE_TIMEOUT_MS };
          run = await (options.wrap ? options.wrap(budgeted, next) : next(budgeted));
          return run;
        });
        try {
          await app.service<AgentService>('agent').run('Run the bound-names probe.');
        } catch (error) {
          failure = error instanceof Error ? error.message : String(error);
        } finally {
          stop();
        }
      } finally {
        await app.dispose();
      }

      const where = `on the ${runtime.name} runtime`;
      const error = (message: string): Finding => ({ check: ID, severity: 'error', message: `${message} ${where}` });
      if (run === undefined)
        return [
          error(
            `the probe program never reached ctx.codeRuntime: the agent did not run the run_code call it was given${failure ? ` (${failure})` : ''}`,
          ),
        ];
      if (run.error)
        return [error(`the probe program failed (${run.error.kind}: ${run.error.message.split('\n').at(-1)})`)];
      const report = readProbeReport(language, run.value);
      if (report === undefined)
        return [error(`the probe program returned something unexpected (${JSON.stringify(run.value)})`)];
      const problems =
        language === 'python' ? pythonProblems(report, declared) : await typescriptProblems(report, declared);
      return problems.map(error);
    },
  };
}

function pythonProblems(report: ProbeReport, declared: readonly string[]): string[] {
  const problems: string[] = [];
  const extra = report.globals.filter((name) => !(BOUND as readonly string[]).includes(name));
  const missing = BOUND.filter((name) => !report.globals.includes(name));
  if (extra.length > 0) problems.push(`globals beyond tools and ToolCallError are bound: ${extra.join(', ')}`);
  if (missing.length > 0) problems.push(`${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not bound`);
  if (!missing.includes('ToolCallError') && !report.errorClass)
    problems.push('ToolCallError is not an Exception class');
  const resolved = declared.filter((name) => report.names[name] !== 'NameError');
  if (resolved.length > 0) {
    problems.push(
      `SDK classes that must raise NameError resolve: ${resolved.map((name) => `${name} (${report.names[name] ?? 'not tried'})`).join(', ')}`,
    );
  }
  return problems;
}

async function typescriptProblems(report: ProbeReport, declared: readonly string[]): Promise<string[]> {
  const problems: string[] = [];
  if (report.received !== BOUND.length)
    problems.push(
      `the program receives ${report.received} bound values; expected ${BOUND.length} (tools, ToolCallError)`,
    );
  if (report.tools !== 'object') problems.push(`typeof tools is ${JSON.stringify(report.tools)}; expected "object"`);
  if (!report.errorClass) problems.push('ToolCallError is not an Error class');
  const reachable = declared.filter(
    (name) => !(BOUND as readonly string[]).includes(name) && report.names[name] !== 'undefined',
  );
  if (reachable.length > 0)
    problems.push(
      `SDK type names reachable as values: ${reachable.map((name) => `${name} (typeof ${report.names[name]})`).join(', ')}`,
    );
  const platform = await platformGlobals();
  const extra = report.globals.filter((name) => !platform.has(name));
  if (extra.length > 0) problems.push(`globals beyond the JavaScript and Node built-ins: ${extra.join(', ')}`);
  return problems;
}

/** The instance the gate runs (see index.ts). */
export const boundNames = boundNamesCheck();
