/**
 * A flooding device in its own process (bench/device-delivery.ts): publishes signed `door` events
 * (FLOOD_KIND=door, signed with FLOOD_PASSWORD, the device secret) or `hello`s (FLOOD_KIND=hello,
 * signed with the enrolment key) as fast as the broker takes them, 100 in flight, reconnecting
 * whenever the server declines (closes the connection). On SIGTERM it prints how many were
 * acknowledged and exits; it prints `flooding` once first connected. Its own process, so that signing thousands of messages a second does not
 * slow the bench's HTTP client, whose p99 is the figure.
 */
import mqtt from 'mqtt';
import { seal, topics } from '../apps/server/src/device-link/protocol.ts';

const { FLOOD_URL = '', FLOOD_SN = '', FLOOD_PASSWORD = '', FLOOD_KIND = 'door' } = process.env;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const message = () =>
  JSON.stringify(
    FLOOD_KIND === 'hello'
      ? seal('hello', { model: 'FLOOD' }, FLOOD_PASSWORD)
      : seal(
          'door',
          { method: 'card', credential: '0001', result: 'denied', reason: '卡未授权', at: Date.now() },
          FLOOD_PASSWORD,
        ),
  );

let running = true;
let acked = 0;
let started = false;
process.once('SIGTERM', () => (running = false));

while (running) {
  const client = await mqtt
    .connectAsync(FLOOD_URL, {
      clientId: FLOOD_SN,
      username: FLOOD_SN,
      password: FLOOD_PASSWORD,
      reconnectPeriod: 0,
    })
    .catch(() => undefined);
  if (!client) {
    await sleep(100);
    continue;
  }
  client.on('error', () => undefined);
  if (!started) console.log('flooding'); // the parent measures from here, not while tsx boots
  started = true;
  const closed = new Promise<'closed'>((resolve) => client.once('close', () => resolve('closed')));
  while (running && client.connected) {
    const batch = Array.from({ length: 100 }, () =>
      client.publishAsync(topics.evt(FLOOD_SN), message(), { qos: 1 }).then(() => acked++),
    );
    if ((await Promise.race([Promise.allSettled(batch), closed])) === 'closed') break;
  }
  await client.endAsync(true);
  await sleep(100);
}
console.log(String(acked));
process.exit(0);
