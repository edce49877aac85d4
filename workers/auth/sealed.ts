import { fromBase64Url, toBase64Url } from "./password-hash.ts";

/**
 * Secrets stored at rest (Pinterest access and refresh tokens): AES-256-GCM
 * with a key derived by HKDF-SHA-256 from AUTH_SECRET and a purpose label, so
 * a database copy alone reveals nothing and each purpose has its own key.
 * Format `v1.<iv>.<ciphertext>` (base64url) leaves room to rotate keys.
 * The additional data binds a sealed value to its row (e.g. the profile id):
 * a value copied to another row does not open.
 */
const VERSION = "v1";
const keyCache = new Map<string, Promise<CryptoKey>>();

function sealingKey(secret: string, purpose: string): Promise<CryptoKey> {
  const id = `${purpose}\u0000${secret}`;
  let key = keyCache.get(id);
  if (!key) {
    key = (async () => {
      const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), "HKDF", false, ["deriveKey"]);
      return crypto.subtle.deriveKey(
        { name: "HKDF", hash: "SHA-256", salt: new TextEncoder().encode("pinboard-sealed-v1"), info: new TextEncoder().encode(purpose) },
        material,
        { name: "AES-GCM", length: 256 },
        false,
        ["encrypt", "decrypt"],
      );
    })();
    keyCache.set(id, key);
  }
  return key;
}

export async function seal(secret: string, purpose: string, plaintext: string, boundTo: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const key = await sealingKey(secret, purpose);
  const data = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(boundTo) },
    key,
    new TextEncoder().encode(plaintext),
  );
  return `${VERSION}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(data))}`;
}

/** The plaintext, or null when the value was tampered with, bound to another row or sealed with another key. */
export async function unseal(secret: string, purpose: string, sealed: string, boundTo: string): Promise<string | null> {
  const [version, iv, data] = sealed.split(".");
  if (version !== VERSION || !iv || !data) return null;
  try {
    const key = await sealingKey(secret, purpose);
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromBase64Url(iv), additionalData: new TextEncoder().encode(boundTo) },
      key,
      fromBase64Url(data),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}
