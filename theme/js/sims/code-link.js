// The reader's code in a link (judge.js), so it can be sent to someone else:
//
//   10-idempotency.html?sim-charge-handler.code=<packed>&sim-charge-handler.seed=5#sim-charge-handler
//
// `code` is the text as UTF-8, compressed with the browser's own deflate (CompressionStream,
// "deflate-raw"), then written in base64url (RFC 4648, section 5: letters, digits, "-" and "_",
// no padding), so it needs no escaping in a URL. Opening such a link puts the code in the editor
// and the seed in its field, and runs nothing: only the reader's Run does. A link is read
// strictly: a key it does not know, a seed that is not a whole number, or code that does not
// unpack rejects it, and the widget says why and keeps the reader's own version.

import { linkEntries } from "./permalink.js";

export const MAX_PACKED = 24_000;   // characters of base64url: far above any exercise's code
export const MAX_CODE = 20_000;     // characters of code, once unpacked
const PACKED = /^[A-Za-z0-9_-]+$/;
const SEED = /^\d{1,10}$/;

/**
 * Read the link's code for widget `id` from `search` (location.search).
 * Returns null when the link says nothing about this widget, {problem} when it cannot be used,
 * else {packed, seed} (seed a string of digits, or null when the link names none).
 */
export function readCodeLink(search, id) {
  const mine = linkEntries(search, id);
  if (!mine) return null;
  const prefix = `${id}.`;
  let packed = null;
  let seed = null;
  for (const [key, value] of mine) {
    const name = key.slice(prefix.length);
    if (name === "code" && packed === null) {
      if (!PACKED.test(value) || value.length > MAX_PACKED) return { problem: "its code is not in the form this page writes" };
      packed = value;
    } else if (name === "seed" && seed === null) {
      if (!SEED.test(value)) return { problem: "its seed is not a whole number" };
      seed = value;
    } else {
      return { problem: `it names “${name.slice(0, 40)}”, which this exercise does not have, or names it twice` };
    }
  }
  if (packed === null) return { problem: "it carries no code" };
  return { packed, seed };
}

/** `text` (a string) packed for a link: deflate-raw, then base64url. */
export async function packCode(text) {
  const bytes = new TextEncoder().encode(text);
  const squeezed = await through(new CompressionStream("deflate-raw"), bytes);
  let binary = "";
  for (const byte of squeezed) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The code a link carries. Raises an Error with a reader's sentence when it does not unpack. */
export async function unpackCode(packed) {
  let bytes;
  try {
    const binary = atob(packed.replaceAll("-", "+").replaceAll("_", "/"));
    bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    bytes = await through(new DecompressionStream("deflate-raw"), bytes);
  } catch (error) {
    throw new Error("its code is damaged (was the link cut short?)");
  }
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  if (text.length > MAX_CODE) throw new Error(`its code is longer than ${MAX_CODE.toLocaleString("en")} characters`);
  return text;
}

/** The page's address with widget `id`'s code and seed in it, every other key kept. */
export function codeLinkURL(location, id, packed, seed) {
  const url = new URL(location.href);
  for (const key of [...url.searchParams.keys()]) if (key.startsWith(`${id}.`)) url.searchParams.delete(key);
  url.searchParams.set(`${id}.code`, packed);
  url.searchParams.set(`${id}.seed`, String(seed));
  url.hash = id;
  return url;
}

async function through(stream, bytes) {
  const writer = stream.writable.getWriter();
  writer.write(bytes).catch(() => {});   // a damaged input fails the read below, which says so
  writer.close().catch(() => {});
  return new Uint8Array(await new Response(stream.readable).arrayBuffer());
}
