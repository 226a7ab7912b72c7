/**
 * The SQL of a principal's object (./subscriptionStore.ts): its subscriptions, the deliveries
 * waiting, the callbacks it verified, and the last event of each type it has taken (so a fan-out
 * that repeats a page queues nothing twice). Created on the object's first use.
 */
import type { LastError } from './postSigned.js';
import type { SubscribeInput } from './eventsNamespace.js';

export interface Subscription {
  id: string;
  name: string;
  url: string;
  args: string;
  secret: string;
  previous_secret: string | null;
  previous_until: number | null;
  caller: string;
  created_at: number;
  expires_at: number;
  /** `suspended`: after repeated failures, until a refresh; `terminated`: its `terminated` envelope is on its way. */
  state: 'active' | 'suspended' | 'terminated';
  last_delivery_at: number | null;
  last_error: LastError | null;
  failed_since: number | null;
  failures: number;
  gap: number;
  /** A type with `check`: the upstream's position checked up to, and when to check again (null for an emit-only type). */
  check_cursor: string | null;
  check_due: number | null;
}

export interface Delivery {
  seq: number;
  subscription: string;
  webhook_id: string;
  /** The body, an event's without its cursor (added when sent), or a control envelope. */
  body: string;
  event_seq: number | null;
  /** An event `check` found: the position before its batch, and after it (on the batch's last event only). */
  from_cursor: string | null;
  to_cursor: string | null;
  attempts: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS subscriptions (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, url TEXT NOT NULL, args TEXT NOT NULL,
  secret TEXT NOT NULL, previous_secret TEXT, previous_until INTEGER, caller TEXT NOT NULL,
  created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, state TEXT NOT NULL,
  last_delivery_at INTEGER, last_error TEXT, failed_since INTEGER,
  failures INTEGER NOT NULL DEFAULT 0, gap INTEGER NOT NULL DEFAULT 0, check_cursor TEXT, check_due INTEGER);
CREATE INDEX IF NOT EXISTS subscriptions_by_name ON subscriptions (name);
CREATE TABLE IF NOT EXISTS deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, subscription TEXT NOT NULL, webhook_id TEXT NOT NULL,
  body TEXT NOT NULL, event_seq INTEGER, from_cursor TEXT, to_cursor TEXT,
  attempts INTEGER NOT NULL DEFAULT 0, due_at INTEGER NOT NULL,
  UNIQUE (subscription, webhook_id));
CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (due_at);
CREATE TABLE IF NOT EXISTS verified (url TEXT PRIMARY KEY, at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS seen (name TEXT PRIMARY KEY, seq INTEGER NOT NULL);`;

export class SubscriptionTables {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(SCHEMA);
  }

  get(id: string): Subscription | undefined {
    return this.sql
      .exec<Subscription & Record<string, SqlStorageValue>>('SELECT * FROM subscriptions WHERE id = ?', id)
      .toArray()[0];
  }

  liveCount(now: number): number {
    return this.sql
      .exec<{ n: number }>(
        "SELECT count(*) AS n FROM subscriptions WHERE state != 'terminated' AND expires_at > ?",
        now,
      )
      .one().n;
  }

  /** The live subscriptions to `name`. */
  forEvent(name: string, now: number): Subscription[] {
    return this.sql
      .exec<Subscription & Record<string, SqlStorageValue>>(
        "SELECT * FROM subscriptions WHERE name = ? AND state != 'terminated' AND expires_at > ?",
        name,
        now,
      )
      .toArray();
  }

  /** A new subscription; `checkCursor` for a type with `check`: where its upstream was checked up to, checked again at `checkDue`. */
  create(
    input: SubscribeInput,
    now: number,
    expiresAt: number,
    checkCursor: string | null = null,
    checkDue: number | null = null,
  ): void {
    this.sql.exec('DELETE FROM deliveries WHERE subscription = ?', input.id);
    this.sql.exec(
      `INSERT OR REPLACE INTO subscriptions (id, name, url, args, secret, caller, created_at, expires_at, state, check_cursor, check_due)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?)`,
      input.id,
      input.name,
      input.url,
      input.args,
      input.secret,
      input.caller,
      now,
      expiresAt,
      checkCursor,
      checkDue,
    );
  }

  /** A refresh: TTL granted anew, active again (failures forgotten), a new secret with the old one kept for the grace. */
  refresh(existing: Subscription, input: SubscribeInput, expiresAt: number, now: number, graceMs: number): void {
    const rotated = existing.secret !== input.secret;
    this.sql.exec(
      `UPDATE subscriptions SET secret = ?, previous_secret = ?, previous_until = ?, caller = ?, expires_at = ?,
       state = 'active', failures = 0, failed_since = NULL WHERE id = ?`,
      input.secret,
      rotated ? existing.secret : existing.previous_secret,
      rotated ? now + graceMs : existing.previous_until,
      input.caller,
      expiresAt,
      input.id,
    );
  }

  remove(id: string): void {
    this.sql.exec('DELETE FROM deliveries WHERE subscription = ?', id);
    this.sql.exec('DELETE FROM subscriptions WHERE id = ?', id);
  }

  terminate(id: string): void {
    this.sql.exec('DELETE FROM deliveries WHERE subscription = ?', id);
    this.sql.exec("UPDATE subscriptions SET state = 'terminated' WHERE id = ?", id);
  }

  expired(now: number): Subscription[] {
    return this.sql
      .exec<Subscription & Record<string, SqlStorageValue>>(
        "SELECT * FROM subscriptions WHERE expires_at <= ? AND state != 'terminated'",
        now,
      )
      .toArray();
  }

  verified(url: string, since: number): boolean {
    return this.sql.exec('SELECT 1 FROM verified WHERE url = ? AND at > ?', url, since).toArray().length > 0;
  }

  markVerified(url: string, at: number): void {
    this.sql.exec('INSERT OR REPLACE INTO verified (url, at) VALUES (?, ?)', url, at);
  }

  lastSeen(name: string): number {
    return this.sql.exec<{ seq: number }>('SELECT seq FROM seen WHERE name = ?', name).toArray()[0]?.seq ?? 0;
  }

  seen(name: string, seq: number): void {
    this.sql.exec('INSERT OR REPLACE INTO seen (name, seq) VALUES (?, ?)', name, seq);
  }

  pendingCount(id: string): number {
    return this.sql.exec<{ n: number }>('SELECT count(*) AS n FROM deliveries WHERE subscription = ?', id).one().n;
  }

  firstPendingSeq(id: string): number | undefined {
    const row = this.sql
      .exec<{ seq: number | null }>('SELECT min(event_seq) AS seq FROM deliveries WHERE subscription = ?', id)
      .one();
    return row.seq ?? undefined;
  }

  queue(id: string, webhookId: string, body: string, eventSeq: number | null, dueAt: number): void {
    this.sql.exec(
      'INSERT OR IGNORE INTO deliveries (subscription, webhook_id, body, event_seq, due_at) VALUES (?, ?, ?, ?, ?)',
      id,
      webhookId,
      body,
      eventSeq,
      dueAt,
    );
  }

  /** Queues an event `check` found, with the positions around its batch (`to` on the batch's last event). */
  queueChecked(
    id: string,
    webhookId: string,
    body: string,
    from: string | null,
    to: string | null,
    dueAt: number,
  ): void {
    this.sql.exec(
      `INSERT OR IGNORE INTO deliveries (subscription, webhook_id, body, from_cursor, to_cursor, due_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
      id,
      webhookId,
      body,
      from,
      to,
      dueAt,
    );
  }

  /** The oldest delivery `check` found still pending, and how many there are. */
  oldestChecked(id: string): { from: string | null; to: string | null; count: number } | undefined {
    const row = this.sql
      .exec<{ from_cursor: string | null; to_cursor: string | null; n: number }>(
        `SELECT from_cursor, to_cursor, (SELECT count(*) FROM deliveries WHERE subscription = ?1 AND from_cursor IS NOT NULL) AS n
         FROM deliveries WHERE subscription = ?1 AND from_cursor IS NOT NULL ORDER BY seq LIMIT 1`,
        id,
      )
      .toArray()[0];
    return row ? { from: row.from_cursor, to: row.to_cursor, count: row.n } : undefined;
  }

  /** Subscriptions to a type with `check` that are due to be checked: active, live. */
  dueChecks(now: number): Subscription[] {
    return this.sql
      .exec<Subscription & Record<string, SqlStorageValue>>(
        "SELECT * FROM subscriptions WHERE check_due <= ? AND state = 'active' AND expires_at > ?",
        now,
        now,
      )
      .toArray();
  }

  /** Where `check` has read up to for a subscription, and when it is asked again. */
  checked(id: string, cursor: string | null, due: number | null): void {
    this.sql.exec('UPDATE subscriptions SET check_cursor = ?, check_due = ? WHERE id = ?', cursor, due, id);
  }

  /** An emit of the type: its subscriptions with `check` are checked at once. */
  checkNow(name: string, now: number): void {
    this.sql.exec('UPDATE subscriptions SET check_due = ? WHERE name = ? AND check_due IS NOT NULL', now, name);
  }

  /** Deliveries due by `now` to subscriptions not suspended, oldest first. */
  due(now: number, limit: number): Delivery[] {
    return this.sql
      .exec<Delivery & Record<string, SqlStorageValue>>(
        `SELECT d.seq, d.subscription, d.webhook_id, d.body, d.event_seq, d.from_cursor, d.to_cursor, d.attempts FROM deliveries d
         JOIN subscriptions s ON s.id = d.subscription
         WHERE d.due_at <= ? AND s.state != 'suspended' ORDER BY d.due_at, d.seq LIMIT ?`,
        now,
        limit,
      )
      .toArray();
  }

  drop(seq: number): void {
    this.sql.exec('DELETE FROM deliveries WHERE seq = ?', seq);
  }

  retryAt(seq: number, attempts: number, dueAt: number): void {
    this.sql.exec('UPDATE deliveries SET attempts = ?, due_at = ? WHERE seq = ?', attempts, dueAt, seq);
  }

  delivered(id: string, at: number): void {
    this.sql.exec(
      'UPDATE subscriptions SET last_delivery_at = ?, last_error = NULL, failed_since = NULL, failures = 0 WHERE id = ?',
      at,
      id,
    );
  }

  /** One more failed attempt; at `suspendAfter` in a row the subscription is suspended (spec: `deliveryStatus.active: false`). */
  failed(id: string, error: LastError, at: number, suspendAfter: number): void {
    this.sql.exec(
      `UPDATE subscriptions SET last_error = ?, failed_since = coalesce(failed_since, ?), failures = failures + 1,
       state = CASE WHEN state = 'active' AND failures + 1 >= ? THEN 'suspended' ELSE state END WHERE id = ?`,
      error,
      at,
      suspendAfter,
      id,
    );
  }

  markGap(id: string): void {
    this.sql.exec('UPDATE subscriptions SET gap = 1 WHERE id = ?', id);
  }

  /** True (and cleared) when events were skipped since the last `gap` envelope. */
  takeGap(id: string): boolean {
    return (
      this.sql.exec('UPDATE subscriptions SET gap = 0 WHERE id = ? AND gap = 1 RETURNING id', id).toArray().length > 0
    );
  }

  /** When the alarm must next run: the first delivery due to a subscription not suspended, the first check due, or the first expiry. */
  nextWake(): number | undefined {
    const row = this.sql
      .exec<{ at: number | null }>(
        `SELECT min(at) AS at FROM (
           SELECT min(d.due_at) AS at FROM deliveries d JOIN subscriptions s ON s.id = d.subscription WHERE s.state != 'suspended'
           UNION ALL SELECT min(check_due) FROM subscriptions WHERE state = 'active'
           UNION ALL SELECT min(expires_at) FROM subscriptions WHERE state != 'terminated')`,
      )
      .one();
    return row.at ?? undefined;
  }
}
