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

const usage = `Usage: npm run device -- --sn DEMO-001 [--url mqtt://host:1883] [--enrol-key KEY | --secret SECRET] [--model SIM-100]

A door device in the terminal (docs/devices.md). Without --secret it says hello with the enrolment
key and waits to be registered on 设备管理 → 待注册; with the secret shown there it connects as that
device, acks every command, and sends a door event for each code, card or password typed. Door
events it could not deliver are kept and sent again after it reconnects.

  --sn SN          serial number: 1–64 of A-Z a-z 0-9 _ -
  --url URL        the broker (default MQTT_URL, else mqtt://127.0.0.1:MQTT_PORT or 1883)
  --enrol-key KEY  the fleet enrolment key (default DEVICE_ENROL_KEY, else the development key)
  --secret SECRET  the device secret shown once at registration
  --model MODEL    the model it reports in hello (default SIM-100)
  -h, --help       this text`;

let parsed;
try {
  parsed = parseArgs({
    options: {
      sn: { type: 'string' },
      url: {
        type: 'string',
        default: process.env.MQTT_URL ?? `mqtt://127.0.0.1:${process.env.MQTT_PORT ?? 1883}`,
      },
      'enrol-key': { type: 'string', default: process.env.DEVICE_ENROL_KEY ?? DEVELOPMENT_ENROL_KEY },
      secret: { type: 'string' },
      model: { type: 'string', default: 'SIM-100' },
      help: { type: 'boolean', short: 'h' },
    },
  });
} catch (error) {
  // parseArgs says what is wrong (an unknown option, a missing value) in one sentence.
  console.error(`${errorOf(error).message}\n\n${usage}`);
  process.exit(2);
}
const { values } = parsed;

if (values.help) {
  console.log(usage);
  process.exit(0);
}
if (!values.sn || !DEVICE_SN_PATTERN.test(values.sn)) {
  console.error(
    values.sn
      ? `The sn "${values.sn}" is not valid: use 1–64 of A-Z a-z 0-9 _ -.\n\n${usage}`
      : `Say which device this is with --sn.\n\n${usage}`,
  );
  process.exit(2);
}
try {
  new URL(values.url!);
} catch {
  console.error(`The broker address "${values.url}" is not a URL such as mqtt://127.0.0.1:1883.`);
  process.exit(2);
}

const device = new SimulatedDevice({
  url: values.url!,
  sn: values.sn,
  secret: values.secret,
  enrolKey: values['enrol-key'],
  model: values.model,
  reconnectMs: 2_000,
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
