/**
 * The console's own MQTT identity on an external broker: the username of MQTT_URL. It is a
 * credential of its own (its password is checked by mqtt-auth), so no device may take it as its sn:
 * an enrolling hello under it is ignored, registering it is refused, and the broker's authenticator
 * denies a device login with it. Otherwise the enrolment key alone would log in as the console.
 */
import type { Config } from '../config.ts';

/** The username and password of MQTT_URL, decoded; undefined when it has no username. */
export function consoleLogin(
  mqttUrl: string | undefined,
): { username: string; password: string | undefined } | undefined {
  if (!mqttUrl) return undefined;
  const url = new URL(mqttUrl);
  if (!url.username) return undefined;
  return {
    username: decodeURIComponent(url.username),
    password: url.password ? decodeURIComponent(url.password) : undefined,
  };
}

/** Whether this sn (or MQTT username) is the console's own and so never a device's. */
export const isConsoleName = (config: Pick<Config, 'mqttUrl'>, name: string | undefined) =>
  name !== undefined && name === consoleLogin(config.mqttUrl)?.username;
