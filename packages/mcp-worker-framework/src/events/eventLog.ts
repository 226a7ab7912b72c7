/**
 * An event type's object (./eventsNamespace.ts): each `emit` of the type is checked against its
 * `payloadSchema`, kept in a ring of the latest (by count and age: `events/poll`, the start of a
 * stream, a webhook's cursor), and written to an outbox before `emit` settles, so an accepted event
 * is never lost to a crash. The alarm then fans each event out, oldest first and a page of
 * principals at a time, to the objects of the principals that subscribe to the type; a page that
 * fails is sent again (each principal ignores an event it has taken). The same `eventId` emitted
 * twice while the ring holds it is one event.
 */
import { bytesOver, isObject, type JsonObject } from '../mcp/internal.js';
import type { EventsConfig } from './eventsConfig.js';
import { type EventsNamespace, type EventsStub, objectNamed, type RingEvent } from './eventsNamespace.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS ring (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL UNIQUE, at INTEGER NOT NULL, occurrence TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS subscribers (principal TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS outbox (seq INTEGER PRIMARY KEY, after TEXT NOT NULL DEFAULT '', tries INTEGER NOT NULL DEFAULT 0);`;

/** The tag of a waiting poll's or stream's socket. */
const WAITING = 'waiting';
/** Fan-out steps one alarm takes before it sets the next (it comes at once). */
const PAGES_PER_ALARM = 10;
/** A page that fails is sent again after this long, at most this many times (then it is skipped, and the log says so). */
const RETRY_PAGE_MS = 1_000;
const PAGE_TRIES = 10;

export class EventLog {
  private readonly sql: SqlStorage;
  /** Read once: the epoch never changes, and a principal's stub serves every event after the first. */
  private epochKept: string | undefined;
  private readonly principals = new Map<string, EventsStub>();

  constructor(
    private readonly state: DurableObjectState,
    private readonly storage: DurableObjectStorage,
    private readonly namespace: () => EventsNamespace,
    private readonly config: EventsConfig,
  ) {
    this.sql = storage.sql;
    this.sql.exec(SCHEMA);
  }

  /** The ring's epoch: made once, so a cursor of a ring that was deleted and started again is known as stale. */
  epoch(): string {
    if (this.epochKept !== undefined) return this.epochKept;
    let epoch = this.storage.kv.get<string>('epoch');
    if (epoch === undefined) {
      epoch = crypto.randomUUID().slice(0, 8);
      this.storage.kv.put('epoch', epoch);
    }
    return (this.epochKept = epoch);
  }

  /** Keeps one emitted occurrence (checked) and queues its fan-out; an `eventId` the ring holds already is not kept twice. */
  async publish(occurrence: JsonObject): Promise<{ eventId: string; seq: number; duplicate: boolean }> {
    const { name, eventId, data, timestamp } = occurrence;
    const type = typeof name === 'string' ? this.config.types.get(name) : undefined;
    if (!type) throw new TypeError(`emit: no event type ${JSON.stringify(name)} in events({ types })`);
    if (typeof eventId !== 'string' || eventId === '' || eventId.length > this.config.limits.idChars)
      throw new TypeError(`emit: eventId must be a string of 1 to ${this.config.limits.idChars} characters`);
    if (typeof timestamp !== 'string' || !isObject(data)) throw new TypeError('emit: data must be an object');
    const why = await type.checkPayload(data);
    // The author's own event breaks its schema: a bug to fix, said without the data (untrusted, maybe personal).
    if (why !== undefined) throw new TypeError(`emit: ${name} data breaks its payloadSchema: ${why.slice(0, 300)}`);
    const text = JSON.stringify({ eventId, name, timestamp, data });
    const limit = this.config.limits.payloadBytes - this.config.limits.idChars - 32;
    if (bytesOver(text, limit) !== undefined)
      throw new TypeError(`emit: ${name} is over ${limit} bytes of JSON; keep payloads small (docs/events.md)`);
    const known = this.sql.exec<{ seq: number }>('SELECT seq FROM ring WHERE event_id = ?', eventId).toArray()[0];
    if (known) return { eventId, seq: known.seq, duplicate: true };
    const now = Date.now();
    const { seq } = this.sql
      .exec<{ seq: number }>(
        'INSERT INTO ring (event_id, at, occurrence) VALUES (?, ?, ?) RETURNING seq',
        eventId,
        now,
        text,
      )
      .one();
    this.storage.kv.put('head', seq);
    if (this.storage.kv.get<string>('name') === undefined) this.storage.kv.put('name', name);
    this.trim(seq, now);
    this.wake({ seq, occurrence: text, acceptedAt: now });
    if (this.sql.exec('SELECT 1 FROM subscribers LIMIT 1').toArray().length > 0) {
      this.sql.exec('INSERT INTO outbox (seq) VALUES (?)', seq);
      if ((await this.storage.getAlarm()) === null) await this.storage.setAlarm(now);
    }
    return { eventId, seq, duplicate: false };
  }

  /**
   * A poll or a stream waiting for this type's events, from any isolate: its WebSocket, accepted
   * with the Hibernation API, so while no event comes the object is evicted and billed nothing.
   */
  waiter(): Response {
    const { 0: client, 1: socket } = new WebSocketPair();
    this.state.acceptWebSocket(socket, [WAITING]);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Every waiter hears of a new event: the event itself, so a stream needs no read to forward it. */
  private wake(event: RingEvent): void {
    const message = JSON.stringify(event);
    for (const socket of this.state.getWebSockets(WAITING)) {
      try {
        socket.send(message);
      } catch {
        // closing meanwhile: its close event takes it away
      }
    }
  }

  addSubscriber(principal: string): { epoch: string; head: number } {
    this.sql.exec('INSERT OR IGNORE INTO subscribers (principal) VALUES (?)', principal);
    return { epoch: this.epoch(), head: this.head() };
  }

  removeSubscriber(principal: string): void {
    this.sql.exec('DELETE FROM subscribers WHERE principal = ?', principal);
  }

  read(after: number, limit: number): { epoch: string; head: number; tail: number; events: RingEvent[] } {
    const events = this.sql
      .exec<{ seq: number; occurrence: string; at: number }>(
        'SELECT seq, occurrence, at FROM ring WHERE seq > ? ORDER BY seq LIMIT ?',
        after,
        limit,
      )
      .toArray()
      .map(({ seq, occurrence, at }) => ({ seq, occurrence, acceptedAt: at }));
    const tail = this.sql.exec<{ seq: number | null }>('SELECT min(seq) AS seq FROM ring').one().seq;
    return { epoch: this.epoch(), head: this.head(), tail: tail ?? this.head() + 1, events };
  }

  /** Fans the oldest events out, a page of principals at a time. */
  async alarm(): Promise<void> {
    for (let page = 0; page < PAGES_PER_ALARM; page++) {
      const next = this.sql
        .exec<{ seq: number; after: string; tries: number }>(
          'SELECT seq, after, tries FROM outbox ORDER BY seq LIMIT 1',
        )
        .toArray()[0];
      if (!next) return;
      const stored = this.sql
        .exec<{ occurrence: string; at: number }>('SELECT occurrence, at FROM ring WHERE seq = ?', next.seq)
        .toArray()[0];
      const principals = this.sql
        .exec<{ principal: string }>(
          'SELECT principal FROM subscribers WHERE principal > ? ORDER BY principal LIMIT ?',
          next.after,
          this.config.limits.fanOutBatch,
        )
        .toArray()
        .map((row) => row.principal);
      if (!stored || principals.length === 0) {
        this.sql.exec('DELETE FROM outbox WHERE seq = ?', next.seq);
        continue;
      }
      const event: RingEvent = { seq: next.seq, occurrence: stored.occurrence, acceptedAt: stored.at };
      // The type's name, kept at its first emit: its events are never parsed here (one may be 256 KiB).
      const name = this.storage.kv.get<string>('name') ?? (JSON.parse(stored.occurrence) as { name: string }).name;
      const epoch = this.epoch();
      const outcomes = await Promise.allSettled(
        principals.map((principal) => this.principal(principal).accept(name, event, epoch)),
      );
      outcomes.forEach((outcome, i) => {
        if (outcome.status === 'fulfilled' && outcome.value === 0)
          this.sql.exec('DELETE FROM subscribers WHERE principal = ?', principals[i]!);
      });
      const failed = outcomes.filter((outcome) => outcome.status === 'rejected').length;
      if (failed > 0 && next.tries + 1 < PAGE_TRIES) {
        this.sql.exec('UPDATE outbox SET tries = tries + 1 WHERE seq = ?', next.seq);
        await this.storage.setAlarm(Date.now() + RETRY_PAGE_MS * 2 ** next.tries);
        return;
      }
      if (failed > 0)
        console.error(
          `events: ${name} event ${next.seq} was not taken by ${failed} principals after ${PAGE_TRIES} tries`,
        );
      if (principals.length < this.config.limits.fanOutBatch)
        this.sql.exec('DELETE FROM outbox WHERE seq = ?', next.seq);
      else this.sql.exec('UPDATE outbox SET after = ?, tries = 0 WHERE seq = ?', principals.at(-1)!, next.seq);
    }
    if (this.sql.exec('SELECT 1 FROM outbox LIMIT 1').toArray().length > 0) await this.storage.setAlarm(Date.now());
  }

  /** A principal's object; at most `fanOutBatch` × 20 stubs kept, the oldest dropped first. */
  private principal(name: string): EventsStub {
    let stub = this.principals.get(name);
    if (!stub) {
      stub = objectNamed(this.namespace(), name);
      if (this.principals.size >= this.config.limits.fanOutBatch * 20)
        this.principals.delete(this.principals.keys().next().value!);
      this.principals.set(name, stub);
    }
    return stub;
  }

  /** The place of the latest event ever kept (the ring may have let it go since). */
  private head(): number {
    return this.storage.kv.get<number>('head') ?? 0;
  }

  /** Keeps the ring to its count and age, never dropping an event still being fanned out. */
  private trim(head: number, now: number): void {
    const { ringEvents, ringAgeMs } = this.config.limits;
    this.sql.exec(
      'DELETE FROM ring WHERE (seq <= ? OR at < ?) AND seq NOT IN (SELECT seq FROM outbox)',
      head - ringEvents,
      now - ringAgeMs,
    );
  }
}
