/** Listening on a free loopback port, for the tests' and benches' stand-in servers and proxies. */
import type net from 'node:net';

/** Starts `server` on a free port of 127.0.0.1 and returns the port. */
export async function listenOnLoopback(server: net.Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the server has no TCP address');
  return address.port;
}
