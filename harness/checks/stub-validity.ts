import { readSdkSection } from '../../contract/sdk-section.js';
import { type Finding, RENDERER_FLOOR, STUB_VALIDITY } from '../findings.js';
import type { InterpreterInventory } from '../interpreters/inventory.js';
import type { StubCell } from '../interpreters/types.js';
import { LANGUAGE_PACKS } from '../languages/index.js';
import type { Session } from '../session.js';
import type { CheckInput, ViewCheck } from './types.js';

/** The SDK block of the first request the model was shown, when its section has one. */
export function firstSdkBlock(input: Pick<CheckInput, 'view'>): string | undefined {
  const section = input.view.requests[0]?.sdkSection;
  return section === undefined ? undefined : readSdkSection(section).block?.body;
}

export interface StubValidityOptions {
  /** Where the interpreters come from (default: the session's inventory). */
  inventory?: () => Promise<InterpreterInventory>;
}

/**
 * The stubs judged as code that must run, where the language has a stub judge (Python: compiled and executed as a
 * module on every interpreter from the floor up). In a gate, the pair's row of the stub matrix is kept in the session.
 */
export function stubValidityCheck(options: StubValidityOptions = {}): ViewCheck {
  async function run({ view, pair, floor, session }: CheckInput): Promise<Finding[]> {
    const key = pair === undefined ? undefined : `${pair.scenario.name}/${pair.runtime.name}`;
    if (key !== undefined) session.stubCells.delete(key);
    const judge = LANGUAGE_PACKS[view.language].stubs;
    const sdk = firstSdkBlock({ view });
    if (judge === undefined || sdk === undefined) return [];
    const inventory = await (options.inventory ?? (() => session.inventory()))();
    const { findings, cells } = await judge.judge(sdk, floor, inventory, view.sdkName);
    if (pair !== undefined && key !== undefined)
      session.stubCells.set(
        key,
        cells.map((cell) => ({ scenario: pair.scenario.name, runtime: pair.runtime.name, ...cell })),
      );
    return findings;
  }
  return { id: STUB_VALIDITY, run };
}

/** The instance the gate runs (see index.ts). */
export const stubValidity = stubValidityCheck();

/**
 * The SDK's names read with the floor's own Unicode tables, where the language has a stub judge: a renderer deciding
 * identifiers with Node's newer tables writes names an older floor's parser rejects.
 */
export const rendererFloorCheck: ViewCheck = {
  id: RENDERER_FLOOR,
  run({ view, floor }: CheckInput): Finding[] {
    const judge = LANGUAGE_PACKS[view.language].stubs;
    const sdk = firstSdkBlock({ view });
    const past = judge === undefined || sdk === undefined ? undefined : judge.pastFloor(sdk, floor);
    if (past === undefined) return [];
    return [
      {
        check: RENDERER_FLOOR,
        severity: 'error',
        message: `${view.sdkName} writes ${past}; write such a tool as a listed name (tools["…"]) and decide identifiers with the floor's Unicode tables`,
      },
    ];
  },
};

/**
 * Every cell of the latest run of each scenario × runtime the session's stub validity saw, in the order it saw them.
 */
export function stubMatrix(session: Session): StubCell[] {
  return [...session.stubCells.values()].flat();
}
