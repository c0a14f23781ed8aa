/**
 * A trivial node:https JSON server (reads the body, answers a small JSON object): the
 * ceiling of the load generator plus TLS on this machine, to read the API server's figures
 * against. Forked by the api-writes benchmark; it reports its port over IPC and exits when
 * the parent disconnects or after 10 minutes, whichever comes first.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const pki = process.argv[2];
if (pki === undefined) throw new Error('usage: trivial-server.ts PKI_DIR');
const server = createServer(
  { cert: readFileSync(join(pki, 'server.crt')), key: readFileSync(join(pki, 'server.key')) },
  (req, res) => {
    let bytes = 0;
    req.on('data', (d: Buffer) => {
      bytes += d.length;
    });
    req.on('end', () => {
      const body = JSON.stringify({ ok: true, bytes });
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
      });
      res.end(body);
    });
  },
);
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
process.on('disconnect', () => process.exit(0));
setTimeout(() => process.exit(3), 600_000).unref();
