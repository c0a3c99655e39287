/**
 * `npm run device -- --sn DEMO-001 [--url mqtt://127.0.0.1:1883] [--enrol-key … | --secret …]`:
 * a door device in the terminal. It connects, says hello, acks and prints every command, and lets a
 * person type a door code, a card number or an admin password and see the door event it sends.
 */
import readline from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { DEVICE_SN_PATTERN } from '@cowork/contract';
import { DEVELOPMENT_ENROL_KEY } from '../config.ts';
import { SimulatedDevice } from './simulator.ts';
import { errorOf } from '../lib/unknown.ts';

const { values } = parseArgs({
  options: {
    sn: { type: 'string' },
    url: {
      type: 'string',
      default: process.env.MQTT_URL ?? `mqtt://127.0.0.1:${process.env.MQTT_PORT ?? 1883}`,
    },
    'enrol-key': { type: 'string', default: process.env.DEVICE_ENROL_KEY ?? DEVELOPMENT_ENROL_KEY },
    secret: { type: 'string' },
    model: { type: 'string', default: 'SIM-100' },
  },
});

if (!values.sn || !DEVICE_SN_PATTERN.test(values.sn)) {
  console.error(
    'Usage: npm run device -- --sn DEMO-001 [--url mqtt://host:1883] [--enrol-key KEY | --secret SECRET]',
  );
  console.error('The sn is 1–64 of A-Z a-z 0-9 _ -.');
  process.exit(2);
}

const device = new SimulatedDevice({
  url: values.url!,
  sn: values.sn,
  secret: values.secret,
  enrolKey: values['enrol-key'],
  model: values.model,
});
const time = () => new Date().toLocaleTimeString('zh-CN', { hour12: false });
device.on('command', (c) => console.log(`[${time()}] ← ${c.type} ${JSON.stringify(c.params)}`));
device.on('dropped', (reason) => console.log(`[${time()}] ✗ dropped a command: ${reason}`));
device.on('door', (e) =>
  console.log(`[${time()}] → door ${e.method} ${e.result}${e.reason ? ` (${e.reason})` : ''}`),
);
device.on('secret', (secret) => console.log(`[${time()}] new secret (reset-config): ${secret}`));

try {
  await device.connect();
} catch (error) {
  console.error(`Cannot connect to ${values.url} as ${values.sn}: ${errorOf(error).message}`);
  console.error(
    values.secret
      ? 'Is the secret current (reset-config rotates it)?'
      : 'Is the enrolment key right, and is the sn not registered yet?',
  );
  process.exit(1);
}
console.log(
  values.secret
    ? `${values.sn} connected to ${values.url} with its secret.`
    : `${values.sn} said hello with the enrolment key: register it on 设备管理 → 待注册, then restart with --secret.`,
);
console.log('Type: code 123456 · card 12345678 · pwd secret · quit');

const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
for await (const line of rl) {
  const [word, value = ''] = line.trim().split(/\s+/, 2);
  if (word === 'quit' || word === 'exit') break;
  if (word === 'code') await device.enterCode(value);
  else if (word === 'card') await device.swipeCard(value);
  else if (word === 'pwd') await device.enterPassword(value);
  else if (word) console.log('Type: code 123456 · card 12345678 · pwd secret · quit');
}
await device.close();
process.exit(0);
