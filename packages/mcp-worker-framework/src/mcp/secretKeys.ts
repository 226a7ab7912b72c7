/**
 * Keys made from the deployment's secret (MCP_STATE_SECRET): one per secret and purpose, derived
 * with HKDF-SHA-256 under the purpose's own label, so no two uses share a key; kept for the
 * isolate's life. Sealed `requestState` (`./state.ts`) and task ids (`src/tasks/taskId.ts`) use it.
 */
const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

type DeriveKey = SubtleCrypto['deriveKey'];

export function derivedKey(
  secret: string,
  label: string,
  algorithm: Parameters<DeriveKey>[2],
  usages: Parameters<DeriveKey>[4],
): Promise<CryptoKey> {
  const name = `${label}\n${secret}`;
  let key = keys.get(name);
  if (!key) {
    key = crypto.subtle
      .importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey'])
      .then((material) =>
        crypto.subtle.deriveKey(
          { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(), info: encoder.encode(label) },
          material,
          algorithm,
          false,
          usages,
        ),
      );
    keys.set(name, key);
  }
  return key;
}

/** Bytes as base64url without padding (RFC 4648 §5). */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
