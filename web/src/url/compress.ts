// SPDX-License-Identifier: MIT
// Text <-> URL-safe string. deflate-raw + base64url where CompressionStream exists ("z" prefix),
// else plain base64url of the UTF-8 bytes ("b" prefix); both prefixes decode everywhere the
// matching stream exists.

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; ++i) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const writer = stream.writable.getWriter();
  const written = writer.write(bytes as Uint8Array<ArrayBuffer>).then(() => writer.close());
  // Corrupt input fails the writing side too; the reader reports it, so this copy must not surface
  // as an unhandled rejection (it is still awaited below when reading succeeds).
  written.catch(() => undefined);
  const parts: Uint8Array[] = [];
  const reader = stream.readable.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read()) parts.push(part.value);
  await written;
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export function canCompress(): boolean {
  return typeof CompressionStream === 'function' && typeof DecompressionStream === 'function';
}

export async function encodeText(text: string): Promise<string> {
  const bytes = new TextEncoder().encode(text);
  if (canCompress()) return 'z' + toBase64Url(await pipe(bytes, new CompressionStream('deflate-raw')));
  return 'b' + toBase64Url(bytes);
}

export async function decodeText(encoded: string): Promise<string> {
  const kind = encoded[0];
  const bytes = fromBase64Url(encoded.slice(1));
  if (kind === 'b') return new TextDecoder().decode(bytes);
  if (kind === 'z') {
    if (!canCompress()) throw new Error('this browser cannot read compressed links (no DecompressionStream)');
    return new TextDecoder().decode(await pipe(bytes, new DecompressionStream('deflate-raw')));
  }
  throw new Error('unknown encoding in the link');
}
