/** `text` as a regular expression source that matches exactly that text (every character special to a pattern escaped). */
export function literalPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
