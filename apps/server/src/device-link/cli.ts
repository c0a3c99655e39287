/**
 * `npm run device -- --sn DEMO-001 [--url mqtt://127.0.0.1:1883] [--enrol-key … | --secret …]`:
 * a door device in the terminal. It connects, says hello, acks and prints every command, and lets a
 * person type a door code, a card number or an admin password and see the door event it sends; as
 * a v1.1 device (the default) also raise and clear alarms and see the mode, lease and version it
 * holds, while reboot and firmware commands from the console restart it and install for real.
 */
import readline from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { alarmKinds, DEVICE_SN_PATTERN, spaceModeLabels, type AlarmKind } from '@cowork/contract';
import { DEVELOPMENT_ENROL_KEY } from '../config.ts';
import { SimulatedDevice } from './simulator.ts';
import { errorOf } from '../lib/unknown.ts';

const usage = `Usage: npm run device -- --sn DEMO-001 [--url mqtt://host:1883] [--enrol-key KEY | --secret SECRET] [--model SIM-100]

A door device in the terminal (docs/device-protocol.md). Without --secret it says hello with the enrolment
key and waits to be registered on 设备管理 → 待注册; with the secret shown there it connects as that
device, acks every command, and sends a door event for each code, card or password typed. Door
events and alarms it could not deliver are kept and sent again after it reconnects. As a v1.1
device (the default) it holds the mode, lease and version of its last sync, restarts on 重启, and
downloads, checks and installs firmware a rollout sends it.

  --sn SN               serial number: 1–64 of A-Z a-z 0-9 _ -
  --url URL             the broker (default MQTT_URL, else mqtt://127.0.0.1:MQTT_PORT or 1883)
  --enrol-key KEY       the fleet enrolment key (default DEVICE_ENROL_KEY, else the development key)
  --secret SECRET       the device secret shown once at registration
  --model MODEL         the model it reports in hello (default SIM-100)
  --firmware VERSION    the firmware it runs at start (default 1.0.0)
  --protocol 1|1.1      the protocol it speaks (default 1.1; 1 is a device without the v1.1 additions)
  --fail-firmware-check every firmware download fails its check (nothing is installed)
  -h, --help            this text

Typed while it runs:
  code 123456 · card 12345678 · pwd 24681357   a credential at the door
  alarm KIND [detail] · clear KIND              raise or clear an alarm (v1.1); KIND: ${alarmKinds.join(' ')}
  state                                         mode, lease, version, firmware and raised alarms
  quit`;
const prompt =
  'Type: code 123456 · card 12345678 · pwd 24681357 · alarm forced · clear forced · state · quit';

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
      firmware: { type: 'string', default: '1.0.0' },
      protocol: { type: 'string', default: '1.1' },
      'fail-firmware-check': { type: 'boolean', default: false },
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
const protocol = values.protocol === '1' || values.protocol === '1.1' ? values.protocol : undefined;
if (!protocol) {
  console.error(`The protocol "${values.protocol}" is not one a device speaks: use 1 or 1.1.\n\n${usage}`);
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
  firmware: values.firmware,
  protocol,
  failFirmwareCheck: values['fail-firmware-check'],
  reconnectMs: 2_000,
});
const time = () => new Date().toLocaleTimeString('zh-CN', { hour12: false });
device.on('command', (c) => console.log(`[${time()}] ← ${c.type} ${JSON.stringify(c.params)}`));
device.on('dropped', (reason) => console.log(`[${time()}] ✗ dropped a command: ${reason}`));
device.on('door', (e) =>
  console.log(`[${time()}] → door ${e.method} ${e.result}${e.reason ? ` (${e.reason})` : ''}`),
);
device.on('secret', (secret) => console.log(`[${time()}] new secret (reset-config): ${secret}`));
device.on('alarm', (a) =>
  console.log(`[${time()}] → alarm ${a.kind} ${a.state}${a.detail ? ` (${a.detail})` : ''}`),
);
device.on('progress', (p) =>
  console.log(`[${time()}] → progress ${p.stage} ${p.percent}%${p.error ? ` (${p.error})` : ''}`),
);
device.on('delivered', () => {
  if (device.keptEvents.length === 0) return;
  console.log(`[${time()}] ${device.keptEvents.length} event(s) still kept, waiting for the broker`);
});
let connects = 0;
device.on('connected', () => {
  if (++connects > 1) console.log(`[${time()}] reconnected and said hello (firmware ${device.firmware})`);
});

/** What the device holds: its sync's mode, lease and version, its firmware and raised alarms. */
function describeState(): string {
  const { state } = device;
  if (protocol !== '1.1') return `v1 device · firmware ${device.firmware} · ${state.access.length} member(s)`;
  const lease =
    state.validUntil === undefined
      ? 'no lease'
      : `lease until ${new Date(state.validUntil).toLocaleString('zh-CN', { hour12: false })}${device.leaseExpired ? ' (expired)' : ''}`;
  const mode = state.mode ?? 'normal';
  return [
    `version ${state.version ?? '—'}`,
    `mode ${mode} (${spaceModeLabels[mode]})`,
    lease,
    `firmware ${device.firmware}`,
    `${state.access.length} member(s), ${state.cardRules.length} card(s), ${state.adminPasswords.length} admin password(s)`,
    `alarms raised: ${[...device.raised].join(', ') || 'none'}`,
    `${device.keptEvents.length} event(s) kept`,
  ].join(' · ');
}

const isAlarmKind = (value: string): value is AlarmKind => alarmKinds.some((k) => k === value);

/** `alarm KIND [detail]` / `clear KIND`: a v1.1 alarm begins or ends. */
async function alarmLine(word: 'alarm' | 'clear', kind: string, detail: string) {
  if (protocol !== '1.1') return console.log('Alarms are protocol v1.1: start with --protocol 1.1.');
  if (!isAlarmKind(kind)) return console.log(`Name the alarm: ${alarmKinds.join(', ')}.`);
  if (word === 'alarm') {
    if (!(await device.raiseAlarm(kind, detail || undefined))) console.log(`${kind} is raised already.`);
  } else if (!(await device.clearAlarm(kind, detail || undefined))) console.log(`${kind} is not raised.`);
}

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
console.log(prompt);

const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
for await (const line of rl) {
  const [word = '', value = '', ...rest] = line.trim().split(/\s+/);
  if (word === 'quit' || word === 'exit') break;
  if (word === 'code') await device.enterCode(value);
  else if (word === 'card') await device.swipeCard(value);
  else if (word === 'pwd') await device.enterPassword(value);
  // Not awaited: the event is kept until the broker acknowledges it, and typing goes on meanwhile.
  else if (word === 'alarm' || word === 'clear') void alarmLine(word, value, rest.join(' '));
  else if (word === 'state') console.log(describeState());
  else if (word) console.log(prompt);
}
await device.close();
process.exit(0);
