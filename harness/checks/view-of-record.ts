import { RUN_CODE_TOOL, TOOLS_SDK_SECTION } from '../../contract/backend.js';
import { DEFAULT_TOOLS_OBJECT, LANGUAGE_PACKS, type Registered } from '../languages/index.js';
import type { ModelView } from '../readers/model-view.js';
import type { RunRecord } from '../snapshot/transcript.js';

/**
 * The tools the app registered, as seen at the gate's seams: the `tools` namespace of the first program that crossed
 * the runtime seam, else the native tools offered next to `run_code`; unknown otherwise.
 */
export function registeredTools(record: RunRecord): Registered | undefined {
  const bound = record.programs[0]?.tools;
  if (bound !== undefined) return { names: bound, complete: true };
  const native = record.exchanges[0]?.request.tools.filter((t) => t.name !== RUN_CODE_TOOL).map((t) => t.name) ?? [];
  return native.length > 0 ? { names: native, complete: true } : undefined;
}

/** What the model was shown in one scenario × runtime, from the requests that crossed the gate's model seam. */
export function viewOfRecord(record: RunRecord): ModelView {
  // Unknown here (no program ran, no tool beside run_code) is no tool known of: an SDK that offers none is not
  // judged against tools the gate never saw.
  const registered = registeredTools(record) ?? { names: [], complete: false };
  return {
    source: `${record.scenario} × ${record.runtime}`,
    language: record.language,
    requests: record.exchanges.map(({ request }) => ({
      sdkSection: request.system.find((s) => s.id === TOOLS_SDK_SECTION)?.text,
      tools: request.tools,
    })),
    sdkName: LANGUAGE_PACKS[record.language].sdkFile,
    place: `on the ${record.runtime} runtime`,
    codeTools: [RUN_CODE_TOOL],
    registered,
    toolsObject: DEFAULT_TOOLS_OBJECT,
    notes: [],
  };
}
