// Preloaded (`node --import`) into a process and, through the inherited execArgv, into its
// worker threads: the wall clock stands still (Date.now and `new Date()` always give the time
// this module loaded), so any cluster behaviour that still reads it shows up as that time,
// far from the virtual clock's. Timers are unaffected (Node's are monotonic), and so is TLS
// (OpenSSL reads the system time): certificates made now stay valid.
const RealDate = Date;
const FROZEN_MS = RealDate.now();
class FrozenDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(FROZEN_MS);
    else super(...args);
  }
  static now() {
    return FROZEN_MS;
  }
}
globalThis.Date = FrozenDate;
