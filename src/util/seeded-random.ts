/**
 * Randomness that repeats: `fleetyard up --seed N` gives every consumer (each controller, the
 * API server's UIDs and generated names, the informers' jitter) a stream of its own derived
 * from N and the consumer's name, so one consumer's draws do not depend on how often another
 * drew before it. The generator is sfc32 (Chris Doty-Humphrey's Small Fast Chaotic PRNG,
 * 128-bit state, passes PractRand to 2^40 bytes); it is for simulation, never for secrets
 * (tokens and keys come from node:crypto).
 *
 * @module
 */

/** A [0, 1) stream for `name`, fixed by `seed`. */
export function seededRandom(seed: number, name = ''): () => number {
  let h = fnv1a(`${seed}/${name}`);
  const next32 = (): number => {
    // splitmix32 spreads the hash into the four state words.
    h = (h + 0x9e3779b9) | 0;
    let z = h;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = next32();
  let b = next32();
  let c = next32();
  let d = next32();
  const random = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  // The first outputs of a fresh state are less mixed: discard a few, as sfc32's author does.
  for (let i = 0; i < 12; i++) random();
  return random;
}

/** A version-4 UUID drawn from `random` (what `crypto.randomUUID` returns, repeatably). */
export function uuidFrom(random: () => number): string {
  const bytes = Array.from({ length: 16 }, () => Math.floor(random() * 256));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
