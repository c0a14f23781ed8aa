/**
 * Pod IPs from a node's pod CIDR, like the CNI `host-local` IPAM plugin: the network address,
 * the first host (the bridge gateway, `.1` in a /24) and the broadcast address are never
 * handed out; allocation continues round-robin after the last IP given, so a freed IP is not
 * reused at once. One IP per pod UID: asking again for the same UID returns the same IP (a
 * status write that failed does not leak an address).
 *
 * @module
 */

/** The CNI's message when the range is exhausted (host-local: `no IP addresses available`). */
export function exhaustedMessage(first: string, last: string): string {
  return `failed to allocate for range 0: no IP addresses available in range set: ${first}-${last}`;
}

function parseIPv4(text: string): number {
  const parts = text.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) {
    throw new TypeError(`not an IPv4 address: ${text}`);
  }
  return parts.reduce((n, p) => n * 256 + p, 0);
}

function formatIPv4(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

export class IpAllocator {
  readonly cidr: string;
  /** First and last assignable addresses (as numbers). */
  readonly #first: number;
  readonly #last: number;
  readonly #byUid = new Map<string, number>();
  readonly #used = new Set<number>();
  #cursor: number;

  /** `cidr` like `10.244.1.0/24`; prefixes /8 … /30. */
  constructor(cidr: string) {
    const [base, bits] = cidr.split('/');
    const prefix = Number(bits);
    if (!base || !Number.isInteger(prefix) || prefix < 8 || prefix > 30) {
      throw new TypeError(`unsupported pod CIDR: ${cidr}`);
    }
    const size = 2 ** (32 - prefix);
    const network = Math.floor(parseIPv4(base) / size) * size;
    this.cidr = cidr;
    this.#first = network + 2;
    this.#last = network + size - 2;
    this.#cursor = this.#last;
  }

  /** The first and last assignable addresses, for messages. */
  get range(): [string, string] {
    return [formatIPv4(this.#first - 1), formatIPv4(this.#last)];
  }

  contains(ip: string): boolean {
    try {
      const n = parseIPv4(ip);
      return n >= this.#first && n <= this.#last;
    } catch {
      return false;
    }
  }

  /** The IP of `uid`, allocating one; undefined when the range is exhausted. */
  allocate(uid: string): string | undefined {
    const held = this.#byUid.get(uid);
    if (held !== undefined) return formatIPv4(held);
    const span = this.#last - this.#first + 1;
    for (let k = 1; k <= span; k++) {
      const n = this.#first + ((this.#cursor - this.#first + k) % span);
      if (!this.#used.has(n)) {
        this.#take(uid, n);
        this.#cursor = n;
        return formatIPv4(n);
      }
    }
    return undefined;
  }

  /** Records an IP already in use (seen on a pod at start); false if outside the range or taken. */
  reserve(uid: string, ip: string): boolean {
    if (!this.contains(ip)) return false;
    const n = parseIPv4(ip);
    if (this.#byUid.get(uid) === n) return true;
    if (this.#used.has(n) || this.#byUid.has(uid)) return false;
    this.#take(uid, n);
    return true;
  }

  release(uid: string): void {
    const n = this.#byUid.get(uid);
    if (n === undefined) return;
    this.#byUid.delete(uid);
    this.#used.delete(n);
  }

  /** Addresses in use. */
  get size(): number {
    return this.#used.size;
  }

  #take(uid: string, n: number): void {
    this.#byUid.set(uid, n);
    this.#used.add(n);
  }
}
