/**
 * The text of an answer, as a test reads it: the text blocks of a tool's result, the text
 * contents of a resource, or the text messages of a prompt, joined by newlines (images, audio
 * and blobs have none). The answers are typed by the spec's results, whose content is a union.
 */

type Texts = { type: string; text?: string } | { uri: string; text?: string };

/** `textOf(result)`: `'{"sum":42}'` for `{ content: [{ type: 'text', text: '{"sum":42}' }] }`. */
export function textOf(
  result: { content: readonly Texts[] } | { contents: readonly Texts[] } | { messages: readonly { content: Texts }[] },
): string {
  const blocks =
    'content' in result
      ? result.content
      : 'contents' in result
        ? result.contents
        : result.messages.map((m) => m.content);
  return blocks.flatMap((block) => (typeof block.text === 'string' ? [block.text] : [])).join('\n');
}
