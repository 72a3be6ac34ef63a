/** One name a renderer wants for something a single owner declares (a tool, a shared definition). */
export interface WantedName {
  /** What the name belongs to, as text that stays the same however the tool set around it changes. */
  owner: string;
  name: string;
}

/** Six hex digits of the 32-bit FNV-1a hash of `text` (UTF-16 code units): short, stable, from `text` alone. */
export function ownerSuffix(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0').slice(0, 6);
}

/**
 * The declared names for `wanted`, in its order. A name only one owner wants, and no `taken` name, is kept
 * as it is. A name several owners want (or a taken one) is a real collision: each owner's entry becomes
 * `name_suffix`, the suffix derived from the owner alone, so what an entry is called never depends on
 * where other tools sort or how many there are — only on whether its name collides. Wanted names hold no
 * `_` before a suffix is added, so a suffixed name never meets a plain one; two owners whose suffixes
 * agree (the same tool listed twice) are counted in the given order.
 */
export function declaredNames(wanted: readonly WantedName[], taken: ReadonlySet<string> = new Set()): string[] {
  const owners = new Map<string, Set<string>>();
  for (const { owner, name } of wanted) {
    let set = owners.get(name);
    if (set === undefined) owners.set(name, (set = new Set()));
    set.add(owner);
  }
  const used = new Set<string>(taken);
  const declared: string[] = [];
  for (const { owner, name } of wanted) {
    let final = owners.get(name)!.size === 1 && !taken.has(name) ? name : `${name}_${ownerSuffix(owner)}`;
    if (used.has(final)) {
      let counter = 2;
      while (used.has(`${final}_${counter}`)) counter++;
      final = `${final}_${counter}`;
    }
    used.add(final);
    declared.push(final);
  }
  return declared;
}
