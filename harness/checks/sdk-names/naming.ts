import type { LanguagePack, Reach, Registered, SdkNames } from '../../languages/index.js';
import { nameList } from '../../text/name-list.js';

const show = (r: Reach) =>
  `${r.how === 'method' ? 'method' : 'listed'} ${r.spelled} (line ${r.line}, column ${r.column})`;

/**
 * What is wrong with the names of an SDK block: two top-level declarations that are one name after the
 * language's normalization (the later silently shadows the earlier), and — given the registered tools —
 * a tool no method or listed name reaches, or one reached more than once.
 */
export function namingProblems(pack: LanguagePack, names: SdkNames, registered?: Registered): string[] {
  const problems: string[] = [];
  for (const { key, declarations } of names.collisions) {
    const spelled = declarations.map((d) => `${d.name} (line ${d.line}, column ${d.column})`).join(', ');
    problems.push(
      `declared names collide: ${spelled} are one name ${pack.normalization} (${key}); the last one shadows the others`,
    );
  }
  if (registered === undefined) return problems;
  const wanted = new Set(registered.names);
  const unreachable: string[] = [];
  for (const tool of registered.names) {
    const ways = names.reaches.filter((r) => r.reaches === tool);
    if (ways.length === 1) continue;
    if (ways.length > 1) {
      problems.push(`tool ${JSON.stringify(tool)} is reachable ${ways.length} times: ${ways.map(show).join('; ')}`);
      continue;
    }
    // What a reader would take for the tool: its own spelling, or a look-alike that normalizes elsewhere.
    const near = names.reaches.filter(
      (r) => r.spelled === tool || (r.spelled !== r.reaches && names.normalize(r.spelled) === names.normalize(tool)),
    );
    if (near.length === 0) {
      unreachable.push(tool);
      continue;
    }
    const hint = near
      .map(
        (r) =>
          `${show(r)} reaches ${r.reaches === undefined ? 'nothing (a mangled private name)' : JSON.stringify(r.reaches)}`,
      )
      .join('; ');
    problems.push(
      `tool ${JSON.stringify(tool)} is not reachable from the SDK: no method and no listed name reaches it (${hint})`,
    );
  }
  // One problem for every tool it hits: a renderer that drops 40 tools is one fault.
  if (unreachable.length === 1)
    problems.push(
      `tool ${JSON.stringify(unreachable[0])} is not reachable from the SDK: no method and no listed name reaches it`,
    );
  if (unreachable.length > 1)
    problems.push(
      `${unreachable.length} tools are not reachable from the SDK: no method and no listed name reaches ${nameList(unreachable.map((t) => JSON.stringify(t)))}`,
    );
  if (registered.complete) {
    const strays = names.reaches.filter((r) => r.reaches !== undefined && !wanted.has(r.reaches));
    if (strays.length === 1)
      problems.push(
        `${show(strays[0]!)} offers ${JSON.stringify(strays[0]!.reaches)}, but no tool of that name is registered`,
      );
    if (strays.length > 1)
      problems.push(
        `${strays.length} names offer tools that are not registered: ${nameList(strays.map((r) => `${show(r)} offers ${JSON.stringify(r.reaches)}`))}`,
      );
  }
  return problems;
}
