import type { Language } from '../../runtimes/seam/types.js';
import { DEFAULT_TOOLS_OBJECT, type Registered } from '../languages/index.js';

/** A function a request offers the model, as the checks read it: its description may be missing, which is a finding. */
export interface ShownFunction {
  name: string;
  description?: string | undefined;
  parameters?: unknown;
  /** The program is the tool's whole input (an OpenAI custom tool, free-form text): it has no `code` parameter. */
  freeform?: boolean | undefined;
}

/** One request as the model was shown it: its `tools:sdk` section, when it has one, and the functions it offers. */
export interface ShownRequest {
  /** The section's text: optional prose and one fenced block whose info string names the language. */
  sdkSection?: string | undefined;
  tools: readonly ShownFunction[];
}

/**
 * What a model was shown of a Code Mode backend: the one input of every check. The gate makes it from the requests
 * that crossed its model seam; `concord check`, `checkRequest`, `checkSdk` and the matcher make it from request
 * bodies, snapshot files and SDK files a team's own tests keep.
 */
export interface ModelView {
  /** What the view is called in `concord check`'s lines: the file, and the JSON path of the section in it. */
  source: string;
  /** The language programs are written in: the runtime's, or the one the SDK's fence names. */
  language: Language;
  /** Every request, in order; the first one's SDK is the one judged as code. */
  requests: readonly ShownRequest[];
  /** How a finding names the SDK block: `tools-sdk.py` in a gate, `the SDK block of body.json $.system` elsewhere. */
  sdkName: string;
  /** Where the section was met, as a finding says it: `on the python runtime`, `in body.json $.system`. */
  place: string;
  /** The functions that run programs: `run_code`, the ones the backend names, or the ones that take code. */
  codeTools: readonly string[];
  /** Where each function was met, when that is another place than the section's (`in body.json $.tools[0]`). */
  toolPlaces?: ReadonlyMap<string, string> | undefined;
  /** The tools the backend registers, when known: then every one must be reachable from the SDK. */
  registered?: Registered | undefined;
  /** The name the backend's runtime binds the tools under in a program: `tools`, or the one it gives. */
  toolsObject: string;
  /** What reading the view could not check, said as notes (a request with no function that runs programs). */
  notes: readonly string[];
}

/** The functions that run programs in a request, in the order it offers them. */
export const codeToolsOf = (view: ModelView, request: ShownRequest | undefined): ShownFunction[] =>
  request?.tools.filter((tool) => view.codeTools.includes(tool.name)) ?? [];

/** The schema of the `code` parameter a function's parameters declare, when they declare one as an object. */
export function codeParameter(parameters: unknown): { type?: unknown; description?: unknown } | undefined {
  const code = (parameters as { properties?: { code?: unknown } } | null)?.properties?.code;
  return typeof code === 'object' && code !== null && !Array.isArray(code) ? code : undefined;
}

/**
 * A view of one request read from a file: the section found at `source`, the functions offered, and where each was
 * met. Findings name the block `the SDK block of <source>`.
 */
export function fileView(parts: {
  source: string;
  language: Language;
  section: string;
  tools: readonly ShownFunction[];
  codeTools: readonly string[];
  /** Where each function was met, as a finding names it (`body.json $.tools[0]`). */
  toolSources?: ReadonlyMap<string, string> | undefined;
  registered?: Registered | undefined;
  notes?: readonly string[];
}): ModelView {
  return {
    source: parts.source,
    language: parts.language,
    requests: [{ sdkSection: parts.section, tools: parts.tools }],
    sdkName: `the SDK block of ${parts.source}`,
    place: `in ${parts.source}`,
    codeTools: parts.codeTools,
    ...(parts.toolSources === undefined
      ? {}
      : { toolPlaces: new Map([...parts.toolSources].map(([name, source]) => [name, `in ${source}`])) }),
    ...(parts.registered === undefined ? {} : { registered: parts.registered }),
    toolsObject: DEFAULT_TOOLS_OBJECT,
    notes: parts.notes ?? [],
  };
}

/**
 * Whether a function runs programs: it takes a `code` string (or names no type for it), or it is a custom tool whose
 * whole input is free-form text.
 */
export function takesCode(tool: ShownFunction): boolean {
  if (tool.freeform) return true;
  const code = codeParameter(tool.parameters);
  return code !== undefined && (code.type === undefined || code.type === 'string');
}
