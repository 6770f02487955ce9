/**
 * What a session's User-Agent says about the device, with bowser (MIT): a label for the security
 * centre and the sign-in alert ("Chrome 120 on Windows 10"), and the key that tells a device seen
 * before from a new one.
 *
 * The device key is the browser's name, the system's name and the kind of device (desktop, mobile,
 * tablet), without versions, hashed with the user's id: a browser or system update is not a new
 * device, another browser, system or kind is. The app is a PWA calling with a bearer token, so
 * there is no long-lived cookie to tell two identical browsers apart; the alert errs towards
 * silence for a second machine of the same make, never towards an alert at every update.
 */
import Bowser from 'bowser';
import { sha256Hex } from './tokens.js';

/** User-Agent headers longer than this are cut before they are parsed or stored. */
export const USER_AGENT_MAX_LENGTH = 512;

export interface DeviceInfo {
  /** "Chrome 120 on Windows 10", "Safari 17 on iOS 17.2 (mobile)"; "Unknown device" when nothing is recognised. */
  label: string;
  /** Lower-case browser, system and kind, before hashing. */
  kind: string;
}

const major = (version: string | undefined) => (version ? version.split('.')[0] : undefined);

/** The device behind a User-Agent header (absent or empty: an unknown device). */
export function deviceOf(userAgent: string | null | undefined): DeviceInfo {
  const agent = (userAgent ?? '').slice(0, USER_AGENT_MAX_LENGTH).trim();
  if (agent === '') return { label: 'Unknown device', kind: 'unknown' };
  const parser = Bowser.getParser(agent);
  const browser = parser.getBrowserName();
  const os = parser.getOSName();
  const platform = parser.getPlatformType();
  if (!browser && !os) {
    const label = agent.length > 60 ? `${agent.slice(0, 57)}...` : agent;
    return { label, kind: `other:${agent.toLowerCase()}` };
  }
  const browserPart = [browser || 'Browser', major(parser.getBrowserVersion())].filter(Boolean).join(' ');
  const { versionName } = parser.getOS();
  const osVersion = versionName || parser.getOSVersion() || undefined;
  const osPart = [os || 'unknown system', osVersion].filter(Boolean).join(' ');
  const label = `${browserPart} on ${osPart}${platform && platform !== 'desktop' ? ` (${platform})` : ''}`;
  return { label, kind: [browser, os, platform].map((part) => (part || '-').toLowerCase()).join('|') };
}

/** The key under which a user's device is remembered (user_devices). */
export function deviceKeyOf(userId: number, device: DeviceInfo): string {
  return sha256Hex(`device:${userId}:${device.kind}`);
}
