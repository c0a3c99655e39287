/**
 * A door device that follows the device protocol (docs/device-protocol.md), written from the protocol alone: the terminal
 * simulator (`npm run device`), the demo devices and the tests all use it. It connects with its
 * secret (or the enrolment key until registered), says hello, checks every command's signature,
 * clock and id, acks, keeps the access state of the last sync, and judges codes, cards and admin
 * passwords typed at it as a real reader would, sending a `door` event for each.
 *
 * Delivery (v1.1): every `door` and `alarm` event is kept until the broker acknowledged it (the
 * latest KEPT_EVENTS of them); after each connect and hello the kept ones go out oldest first, with
 * their own `id` and `at` and a fresh `ts` and `sig`. With `reconnectMs` it reconnects by itself.
 *
 * A v1.1 device (`protocol: '1.1'`) also holds the sync's version, mode and lease (heartbeats repeat
 * the version; simulator-state.ts judges credentials by them), takes `lease`, `reboot` and `firmware`
 * (simulator-firmware.ts), and raises and clears alarms. A v1 device does none of that.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import mqtt, { type MqttClient } from 'mqtt';
import { ALARM_DETAIL_MAX, DEVICE_HEARTBEAT_MS, type AlarmKind } from '@cowork/contract';
import { parseEnvelope, ReplayGuard, seal, signedWith, topics, type Envelope } from './protocol.ts';
import { openSecretBox, type DeviceProtocol } from './secrets-v11.ts';
import { downloadFirmware, firmwareOrderOf, type Progress } from './simulator-firmware.ts';
import {
  cardVerdict,
  codeVerdict,
  emptyState,
  leaseOf,
  passwordVerdict,
  remoteRefusal,
  stateOfSync,
  type DeviceState,
  type DoorResult,
} from './simulator-state.ts';

export interface SimulatorOptions {
  url: string;
  sn: string;
  /** The device secret once registered; without it the device enrols with `enrolKey`. */
  secret?: string;
  enrolKey?: string;
  model?: string;
  vendor?: string;
  firmware?: string;
  heartbeatMs?: number;
  /** Reconnect this long after the connection is lost (a real device does); unset: stay off. */
  reconnectMs?: number;
  /** The protocol it speaks (default 1); "1.1" says so in hello and gets secretBox and PBKDF2. */
  protocol?: DeviceProtocol;
  /** What a device answers to commands: true acks every one; a function may refuse some. */
  answer?: (command: Envelope) => { ok: true } | { ok: false; error: string } | 'silent';
  /** v1.1 firmware: the downloaded file's check fails (a corrupt download), so nothing is installed. */
  failFirmwareCheck?: boolean;
}

export type { DeviceState } from './simulator-state.ts';
export type AccessEntry = DeviceState['access'][number];

/** Kept events at most (the protocol asks for at least the latest 10 000). */
export const KEPT_EVENTS = 10_000;
/** Kept events sent before waiting for their PUBACKs. */
const SEND_WINDOW = 20;

interface KeptEvent {
  id: string;
  type: 'door' | 'alarm';
  params: Record<string, unknown>;
}

export class SimulatedDevice extends EventEmitter<{
  command: [Envelope];
  dropped: [string];
  door: [Record<string, unknown>];
  connected: [];
  secret: [string];
  /** A v1.1 alarm event kept to be sent (its params). */
  alarm: [Record<string, unknown>];
  /** A v1.1 firmware progress report. */
  progress: [Progress];
  /** A kept event the broker acknowledged, by id. */
  delivered: [string];
}> {
  readonly sn: string;
  secret: string | undefined;
  state: DeviceState = emptyState();
  /** The firmware it runs (a v1.1 firmware update installs a new one). */
  firmware: string;
  /** Alarms raised and not yet cleared, by kind. */
  readonly raised = new Set<AlarmKind>();
  /** Commands received and believed, in order. */
  readonly commands: Envelope[] = [];
  private client: MqttClient | undefined;
  private replay = new ReplayGuard();
  private heartbeat: NodeJS.Timeout | undefined;
  private startedAt = Date.now();
  /** Events not yet acknowledged by the broker, oldest first. */
  private kept: KeptEvent[] = [];
  private sending = false;
  private closing = false;
  private retry: NodeJS.Timeout | undefined;
  private updating = false;

  constructor(private options: SimulatorOptions) {
    super();
    this.sn = options.sn;
    this.secret = options.secret;
    this.firmware = options.firmware ?? '1.0.0';
  }

  get v11(): boolean {
    return this.options.protocol === '1.1';
  }

  /** The key this device signs with now: its secret, or the enrolment key before registration. */
  private get key(): string {
    const key = this.secret ?? this.options.enrolKey;
    if (!key) throw new Error('a device needs its secret or the enrolment key');
    return key;
  }

  async connect(): Promise<void> {
    const client = await mqtt.connectAsync(this.options.url, {
      clientId: this.sn,
      username: this.sn,
      password: this.key,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: 5_000,
      will: { topic: topics.status(this.sn), payload: Buffer.from('{"online":false}'), qos: 1, retain: true },
    });
    this.client = client;
    client.on('message', (topic, payload) => this.onCommand(payload));
    client.on('close', () => this.lost(client));
    // A lost connection shows as 'close' (and reconnects with reconnectMs); its error is not news.
    client.on('error', () => undefined);
    await client.subscribeAsync(topics.cmd(this.sn), { qos: 1 });
    if (this.secret) {
      // An enrolling device may publish nothing but hello.
      await client.publishAsync(topics.status(this.sn), '{"online":true}', { qos: 1, retain: true });
    }
    await this.send('hello', {
      model: this.options.model ?? 'SIM-100',
      vendor: this.options.vendor ?? 'cowork',
      firmware: this.firmware,
      ...(this.v11 ? { protocol: '1.1' } : {}),
    });
    if (this.secret) {
      const every = this.options.heartbeatMs ?? DEVICE_HEARTBEAT_MS;
      this.heartbeat = setInterval(() => {
        void this.send('heartbeat', this.heartbeatParams()).catch(() => undefined);
      }, every);
      this.heartbeat.unref();
    }
    this.emit('connected');
    void this.sendKept();
  }

  /** Uptime, and for v1.1 the sync version it holds (none before its first sync). */
  heartbeatParams(): Record<string, unknown> {
    const uptimeS = Math.round((Date.now() - this.startedAt) / 1000);
    return this.v11 && this.state.version !== undefined
      ? { uptimeS, version: this.state.version }
      : { uptimeS };
  }

  /** Events kept until the broker acknowledges them. */
  get keptEvents(): readonly KeptEvent[] {
    return this.kept;
  }

  /** Keeps an event and sends it (with the older ones first) if connected. */
  async sendEvent(type: KeptEvent['type'], params: Record<string, unknown>): Promise<void> {
    this.kept.push({ id: randomUUID(), type, params });
    if (this.kept.length > KEPT_EVENTS) this.kept.splice(0, this.kept.length - KEPT_EVENTS);
    await this.sendKept();
  }

  /**
   * Sends the kept events oldest first, SEND_WINDOW at a time, each signed afresh with its own id;
   * one leaves the list only once the broker acknowledged it. Stops when the connection goes (the
   * next connect starts again).
   */
  private async sendKept() {
    if (this.sending) return;
    this.sending = true;
    try {
      while (this.kept.length > 0 && this.client?.connected && this.secret) {
        const client = this.client;
        const batch = this.kept.slice(0, SEND_WINDOW);
        let onClose: () => void = () => undefined;
        const lost = new Promise<'lost'>((resolve) => {
          onClose = () => resolve('lost');
          client.once('close', onClose);
        });
        const sent = await Promise.race([
          Promise.allSettled(
            batch.map((e) =>
              client.publishAsync(
                topics.evt(this.sn),
                JSON.stringify(seal(e.type, e.params, this.key, Date.now(), e.id)),
                { qos: 1 },
              ),
            ),
          ),
          lost,
        ]);
        client.off('close', onClose);
        if (sent === 'lost') break;
        const acked = new Set(batch.filter((_, i) => sent[i].status === 'fulfilled'));
        this.kept = this.kept.filter((e) => !acked.has(e));
        for (const e of acked) this.emit('delivered', e.id);
        if (acked.size < batch.length) break;
      }
    } finally {
      this.sending = false;
    }
  }

  /** The connection went without close(): reconnect after `reconnectMs`, again until it works. */
  private lost(client: MqttClient) {
    if (client !== this.client || this.closing || !this.options.reconnectMs) return;
    clearInterval(this.heartbeat);
    this.client = undefined;
    this.retryLater();
  }

  /** Tries to connect after `reconnectMs`, again until it works (or it is closed). */
  private retryLater() {
    const again = () => {
      this.retry = setTimeout(() => {
        if (this.closing) return;
        this.connect().catch(again);
      }, this.options.reconnectMs);
    };
    again();
  }

  /** Publishes a signed message on the device's evt topic. */
  async send(type: string, params: Record<string, unknown>): Promise<Envelope> {
    const message = seal(type, params, this.key);
    await this.publishRaw(JSON.stringify(message));
    return message;
  }

  /** Publishes any payload on the evt topic (tests send bad ones). */
  async publishRaw(payload: string | Buffer, topic = topics.evt(this.sn)): Promise<void> {
    if (!this.client) throw new Error('not connected');
    await this.client.publishAsync(topic, payload, { qos: 1 });
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.retry);
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    const client = this.client;
    this.client = undefined;
    // A clean close sends no will: say offline first, as a device switched off properly does.
    if (client?.connected && this.secret)
      await client
        .publishAsync(topics.status(this.sn), '{"online":false}', { qos: 1, retain: true })
        .catch(() => undefined);
    // A connection already cut, or events the broker has not acknowledged, must not hold it open.
    await client?.endAsync(!client.connected || this.kept.length > 0);
  }

  private onCommand(payload: Buffer) {
    const message = parseEnvelope(payload);
    if (typeof message === 'string') return this.emit('dropped', message);
    if (!this.secret || !signedWith(message, this.secret)) return this.emit('dropped', 'bad-signature');
    const stale = this.replay.check(message);
    if (stale) return this.emit('dropped', stale);
    this.commands.push(message);
    this.emit('command', message);
    void this.handle(message).catch(() => undefined);
  }

  private async handle(command: Envelope) {
    const answer = this.options.answer?.(command) ?? { ok: true };
    if (answer === 'silent') return;
    const ack = (extra: { ok: boolean; error?: string }) => this.send('ack', { ref: command.id, ...extra });
    if (!answer.ok) return ack(answer);

    const p = command.params;
    switch (command.type) {
      case 'open-door': {
        const refused = this.v11 ? remoteRefusal(this.state) : undefined;
        if (refused) return ack({ ok: false, error: refused });
        await ack({ ok: true });
        await this.door('remote', typeof p.by === 'string' ? p.by : 'remote', { result: 'success' });
        return;
      }
      case 'sync': {
        // A device keeps what it can read, and says so when it cannot: the lists stay as they were.
        const state = stateOfSync(p, this.options.protocol);
        if (!state) return ack({ ok: false, error: 'sync params malformed' });
        this.state = state;
        return ack({ ok: true });
      }
      case 'clear':
        this.state = emptyState();
        return ack({ ok: true });
      case 'refresh-screen':
        return ack({ ok: true });
      case 'reset-config': {
        const secret = this.newSecretOf(p);
        if (!secret || secret.length < 16) return ack({ ok: false, error: 'secret missing' });
        await ack({ ok: true }); // signed with the old secret, as the protocol says
        this.secret = secret;
        this.emit('secret', secret);
        await this.reconnect();
        return;
      }
      case 'lease': {
        if (!this.v11) break;
        const lease = leaseOf(this.state, p);
        if (typeof lease !== 'number') return ack({ ok: false, ...lease });
        this.state = { ...this.state, validUntil: lease };
        return ack({ ok: true });
      }
      case 'reboot':
        if (!this.v11) break;
        await ack({ ok: true });
        return this.restart();
      case 'firmware':
        if (!this.v11) break;
        return this.updateFirmware(command, ack);
    }
    return ack({ ok: false, error: `unknown command ${command.type}` });
  }

  /** A restart (reboot, new firmware): the connection drops, it comes back and says hello. */
  private async restart() {
    this.startedAt = Date.now();
    try {
      await this.reconnect();
    } catch (error) {
      // A door that cannot reach the broker after restarting keeps trying, as after a lost link.
      if (!this.options.reconnectMs || this.closing) throw error;
      this.retryLater();
    }
  }

  /** `firmware`: acks at once, then downloads, checks, installs and restarts, reporting progress. */
  private async updateFirmware(
    command: Envelope,
    ack: (extra: { ok: boolean; error?: string }) => Promise<Envelope>,
  ) {
    const order = firmwareOrderOf(command.params);
    if ('error' in order) return ack({ ok: false, error: order.error });
    if (this.updating) return ack({ ok: false, error: 'a firmware update is already running' });
    this.updating = true;
    try {
      await ack({ ok: true });
      const report = async (progress: Progress) => {
        this.emit('progress', progress);
        await this.send('progress', { ref: command.id, ...progress }).catch(() => undefined);
      };
      if (!(await downloadFirmware(order, report, { failCheck: this.options.failFirmwareCheck }))) return;
      this.firmware = order.version;
      await report({ stage: 'done', percent: 100 });
    } finally {
      this.updating = false;
    }
    await this.restart();
  }

  /**
   * v1.1: an alarm begins (`held-open`, `forced`, …); the event is kept until delivered. Answers
   * false when that alarm is raised already (a device reports each once until it ends).
   */
  async raiseAlarm(kind: AlarmKind, detail?: string): Promise<boolean> {
    if (!this.v11) throw new Error('alarms are protocol v1.1');
    if (this.raised.has(kind)) return false;
    this.raised.add(kind);
    await this.alarm(kind, 'raised', detail);
    return true;
  }

  /** v1.1: a raised alarm ends; answers false when it was not raised. */
  async clearAlarm(kind: AlarmKind, detail?: string): Promise<boolean> {
    if (!this.v11) throw new Error('alarms are protocol v1.1');
    if (!this.raised.delete(kind)) return false;
    await this.alarm(kind, 'cleared', detail);
    return true;
  }

  private async alarm(kind: AlarmKind, state: 'raised' | 'cleared', detail?: string) {
    const params = {
      kind,
      state,
      at: Date.now(),
      ...(detail ? { detail: detail.slice(0, ALARM_DETAIL_MAX) } : {}),
    };
    this.emit('alarm', params);
    await this.sendEvent('alarm', params);
  }

  /** Whether it holds a v1.1 lease that has run out (members, codes and cards are refused then). */
  get leaseExpired(): boolean {
    return this.state.validUntil !== undefined && Date.now() > this.state.validUntil;
  }

  /** A reset-config's new secret: v1.1 opens its secretBox with the old secret, v1 reads `secret`. */
  private newSecretOf(p: Record<string, unknown>): string | undefined {
    if (this.options.protocol !== '1.1') return typeof p.secret === 'string' ? p.secret : undefined;
    if (typeof p.secretBox !== 'string' || p.secret !== undefined) return undefined;
    try {
      return openSecretBox(p.secretBox, this.secret!);
    } catch {
      return undefined;
    }
  }

  private async reconnect() {
    clearInterval(this.heartbeat);
    const old = this.client;
    this.client = undefined;
    await old?.endAsync(true);
    await this.connect();
  }

  private async door(
    method: 'remote' | 'totp' | 'card' | 'password',
    credential: string,
    verdict: DoorResult,
  ) {
    const params = {
      method,
      credential: credential.slice(-4),
      result: verdict.result,
      ...(verdict.result === 'denied' ? { reason: verdict.reason } : {}),
      at: Date.now(),
    };
    this.emit('door', params);
    await this.sendEvent('door', params);
    return verdict;
  }

  /** A code typed on the keypad: the device's door code, or a member's personal code. */
  async enterCode(code: string, now = Date.now()): Promise<DoorResult> {
    return this.door('totp', code, codeVerdict(this.state, this.secret, code, now));
  }

  /** A card held to the reader. */
  async swipeCard(cardNo: string, now = Date.now()): Promise<DoorResult> {
    return this.door('card', cardNo, cardVerdict(this.state, cardNo, now));
  }

  /** An administrator password typed on the keypad. */
  async enterPassword(password: string): Promise<DoorResult> {
    return this.door('password', password, passwordVerdict(this.state, password));
  }
}
