/** The race for a request's HTTP answer (src/http/transport/firstAnswer.ts): the stream a notification opens, or the reply. */
import { describe, expect, it } from 'vitest';
import { FirstAnswer } from '../../../../src/http/transport/firstAnswer';

const stream = () => new Response('event: message\n\n', { headers: { 'Content-Type': 'text/event-stream' } });
const reply = () => new Response('{}', { headers: { 'Content-Type': 'application/json' } });

describe('FirstAnswer', () => {
  it('answers with the reply when it comes first; a stream opened after it changes nothing', async () => {
    const race = new FirstAnswer(undefined);
    const json = reply();
    race.replyReady(json);
    race.streamOpened(stream());
    expect(await race.response).toBe(json);
  });

  it('answers with the stream as soon as a notification opens it, before the reply is ready', async () => {
    const race = new FirstAnswer(undefined);
    const sse = stream();
    race.streamOpened(sse);
    // settled already: the client gets the stream while the handler still works
    expect(await Promise.race([race.response, new Promise((resolve) => setTimeout(resolve, 50, 'pending'))])).toBe(sse);
    race.replyReady(reply());
    expect(await race.response).toBe(sse);
  });

  it('is won by a stream that opened before the race began (a notification sent before the core went asynchronous)', async () => {
    const sse = stream();
    const race = new FirstAnswer(sse);
    race.replyReady(reply());
    expect(await race.response).toBe(sse);
  });
});
