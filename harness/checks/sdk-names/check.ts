import { RUN_CODE_TOOL } from '../../../contract/backend.js';
import { SDK_FILE, sdkBlockOf } from '../../snapshot/transcript.js';
import type { Check, CheckInput, Finding } from '../types.js';
import { cachedSdkNames, namingProblems, type Registered } from './index.js';

const ID = 'sdk-names';

/**
 * The tools the app registered, as seen at the gate's seams: the `tools` namespace of the first program
 * that crossed the runtime seam, else the native tools offered next to `run_code`; unknown otherwise.
 */
export function registeredTools({ record }: Pick<CheckInput, 'record'>): Registered | undefined {
  const bound = record.programs[0]?.tools;
  if (bound !== undefined) return { names: bound, complete: true };
  const native = record.exchanges[0]?.request.tools.filter((t) => t.name !== RUN_CODE_TOOL).map((t) => t.name) ?? [];
  return native.length > 0 ? { names: native, complete: true } : undefined;
}

/**
 * Every name the SDK declares is unique after the language's normalization, and every registered tool is
 * reachable from it exactly once: a renderer that drops, merges or shadows a tool fails with the names.
 */
export const sdkNamesCheck: Check = {
  id: ID,
  async run(input: CheckInput): Promise<Finding[]> {
    const file = SDK_FILE[input.runtime.language];
    // The block as the model read it, before the snapshot's normalizing.
    const sdk = sdkBlockOf(input.record.exchanges[0]?.request)?.body;
    if (sdk === undefined) return [];
    const names = await cachedSdkNames(input.runtime.language, sdk, input.session);
    return namingProblems(input.runtime.language, names, registeredTools(input)).map((problem) => ({
      check: ID,
      severity: 'error',
      message: `${file}: ${problem}`,
    }));
  },
};
