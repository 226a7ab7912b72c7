/**
 * Task ids (spec extensions/tasks, Security Considerations: "sufficient entropy that a third
 * party cannot enumerate or guess them"): 192 random bits, then a tag, an HMAC-SHA-256 of them
 * and the creating principal under a key derived from MCP_STATE_SECRET, cut to 96 bits. Only
 * this server can mint an id that passes, and only for its creator, so an id that does not is
 * refused as not found before any Durable Object is addressed: probing costs no object, no
 * storage and no bill.
 */

import { derivedKey, toBase64Url } from '../mcp/internal.js';

const RANDOM_BYTES = 24;
const TAG_BYTES = 12;
/** Base64url without padding: 32 characters of randomness, then 16 of tag. */
const RANDOM_CHARS = (RANDOM_BYTES / 3) * 4;
const TASK_ID = /^[A-Za-z0-9_-]{48}$/;

const encoder = new TextEncoder();

/** The HMAC key of task ids, under its own label (sealed state uses another). */
const keyFor = (secret: string) =>
  derivedKey(secret, 'mcp task id v1', { name: 'HMAC', hash: 'SHA-256', length: 256 }, ['sign']);

async function tagOf(secret: string, random: string, principal: string | null): Promise<string> {
  const mac = await crypto.subtle.sign(
    'HMAC',
    await keyFor(secret),
    encoder.encode(JSON.stringify([random, principal])),
  );
  return toBase64Url(new Uint8Array(mac, 0, TAG_BYTES));
}

/** A new task id for `principal` (null: anonymous). */
export async function mintTaskId(secret: string, principal: string | null): Promise<string> {
  const random = toBase64Url(crypto.getRandomValues(new Uint8Array(RANDOM_BYTES)));
  return random + (await tagOf(secret, random, principal));
}

/** True only for an id this server minted for `principal`: anything else is an unknown task. */
export async function isTaskId(secret: string, principal: string | null, taskId: string): Promise<boolean> {
  if (!TASK_ID.test(taskId)) return false;
  const expected = await tagOf(secret, taskId.slice(0, RANDOM_CHARS), principal);
  // Compared in constant time: how long a refusal takes says nothing about how much of the tag was right.
  let difference = 0;
  for (let i = 0; i < expected.length; i++) difference |= expected.charCodeAt(i) ^ taskId.charCodeAt(RANDOM_CHARS + i);
  return difference === 0;
}
