/**
 * FNV-1a, 32 bits, as 8 hex digits: a short, fast name for a text (an entity tag, a list
 * selection in its cursors). Enough to tell one text from the next; not a secret, and a clash
 * costs only a stale revalidation or a cursor that pages the caller's own list.
 */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}
