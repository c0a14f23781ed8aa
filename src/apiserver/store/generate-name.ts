/**
 * `metadata.generateName`: the prefix plus five random characters from upstream's alphabet
 * (`k8s.io/apiserver/pkg/storage/names`), which leaves out vowels and look-alike characters
 * so generated names never spell words. The prefix is cut so the name stays within 63
 * characters.
 *
 * @module
 */

const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const RANDOM_LENGTH = 5;
const MAX_NAME_LENGTH = 63;
const MAX_PREFIX_LENGTH = MAX_NAME_LENGTH - RANDOM_LENGTH;

export function generateName(prefix: string, random: () => number): string {
  const base = prefix.length > MAX_PREFIX_LENGTH ? prefix.slice(0, MAX_PREFIX_LENGTH) : prefix;
  let suffix = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) {
    suffix += ALPHABET[Math.floor(random() * ALPHABET.length)] ?? 'b';
  }
  return base + suffix;
}
