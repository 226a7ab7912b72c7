/**
 * Reads the JSON answer of a service the Worker depends on (an issuer's keys, an introspection
 * endpoint): 200 only (a redirect is not followed, so it is not an answer), a body of at most
 * `maxChars`, parsed. Anything else is the reason it is not an answer, in words for the log: the
 * caller turns it into its own outage (503 with `Retry-After`), never into the client's fault.
 */
type UpstreamJson = { json: unknown } | { failure: string };

export async function readUpstreamJson(response: Response, maxChars: number): Promise<UpstreamJson> {
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    return {
      failure: `HTTP ${response.status}${response.status >= 300 && response.status < 400 ? ', a redirect, which is not followed' : ''}`,
    };
  }
  if (Number(response.headers.get('Content-Length')) > maxChars) {
    await response.body?.cancel().catch(() => undefined);
    return { failure: `a body of more than ${maxChars} bytes` };
  }
  let text: string;
  try {
    text = await response.text();
  } catch {
    return { failure: 'the body could not be read' };
  }
  if (text.length > maxChars) return { failure: `a body of more than ${maxChars} characters` };
  try {
    return { json: JSON.parse(text) };
  } catch {
    return { failure: 'a body that is not JSON' };
  }
}
