/** How many names a list shows before it counts the rest. */
export const NAMES_SHOWN = 5;

/** `a, b and c`; past `shown` names, the first ones and `and N more`: one problem said once for many tools. */
export function nameList(names: readonly string[], shown = NAMES_SHOWN): string {
  if (names.length <= shown) {
    return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  }
  return `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;
}
