/**
 * The message of a caught value, for the places that wrap a thrown error's text into their own
 * (`error decoding set: …`). Everything thrown there is an `Error`; an object from another realm
 * (a worker, `vm`) fails `instanceof` but still carries a string `message`, which is kept.
 *
 * @module
 */
import { isJsonObject } from './object.js';

export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (isJsonObject(e) && typeof e.message === 'string') return e.message;
  return String(e);
}
