// Codes and links, and the long poll that brings them. JavaScript modules of the console page, served from
// /emulator/ui/assets/ (`ConsoleAssets`).
extension ConsoleScripts {
    static let feed = #"""
// SMS codes and email action links as hearth-emulator issues them: one long poll
// (api/projects/{p}/codes?after=VERSION) that answers as soon as the lists change.

import { consoleApi } from './api.js';

const listeners = new Set();
const firstSeen = new Map();
let latest = null;
let started = false;
let connectionListener = () => {};

export function onConnection(listener) {
  connectionListener = listener;
}

// `listener(codes)` now (if the lists are known) and on every change; returns the unsubscribe.
export function subscribe(listener) {
  listeners.add(listener);
  if (latest) listener(latest);
  if (!started) {
    started = true;
    poll();
  }
  return () => listeners.delete(listener);
}

// When the console first saw a code (the emulator keeps no issue time), to mark new ones.
export function seenAt(key) {
  return firstSeen.get(key);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function poll() {
  let version = null;
  let failures = 0;
  let first = true;
  for (;;) {
    try {
      const data = await consoleApi(`/codes${version ? `?after=${encodeURIComponent(version)}` : ''}`);
      failures = 0;
      connectionListener(true);
      if (data.version !== version) {
        version = data.version;
        const now = first ? 0 : Date.now();
        for (const code of data.verificationCodes) if (!firstSeen.has(`sms:${code.sessionInfo}`)) firstSeen.set(`sms:${code.sessionInfo}`, now);
        for (const link of data.oobCodes) if (!firstSeen.has(`oob:${link.oobCode}`)) firstSeen.set(`oob:${link.oobCode}`, now);
        first = false;
        latest = data;
        for (const listener of listeners) listener(data);
      }
    } catch (error) {
      failures += 1;
      connectionListener(false, error.message);
      await sleep(Math.min(5000, 400 * failures));
    }
  }
}
"""#

    static let codes = #"""
// Codes and links: SMS codes and email action links as they are issued, each one click to copy;
// action links open the emulator's action page.

import { h, replace, formatTime, copyButton, safeLink } from './dom.js';
import { subscribe, seenAt } from './feed.js';
import { scope } from './api.js';

const KINDS = {
  VERIFY_EMAIL: 'Verify email',
  PASSWORD_RESET: 'Reset password',
  EMAIL_SIGNIN: 'Sign in with email link',
  RECOVER_EMAIL: 'Recover email',
  VERIFY_AND_CHANGE_EMAIL: 'Verify new email',
  REVERT_SECOND_FACTOR_ADDITION: 'Revert second factor',
};

const FRESH_MS = 60000;

export function codesView(main) {
  const sms = h('tbody', { id: 'sms-rows' });
  const links = h('tbody', { id: 'oob-rows' });
  const smsCount = h('span', { class: 'count', id: 'sms-count' });
  const linkCount = h('span', { class: 'count', id: 'oob-count' });

  replace(main,
    h('div', { class: 'toolbar' }, h('h2', {}, 'Codes & links'),
      h('p', { class: 'muted' }, `What hearth-emulator would have sent for ${scope.tenant ? `tenant ${scope.tenant}` : scope.project}; new ones appear here as they are issued.`)),
    h('section', { class: 'panel' },
      h('h3', {}, 'SMS codes ', smsCount),
      h('table', { class: 'data', id: 'sms-table' },
        h('thead', {}, h('tr', {}, ['Phone number', 'Code', 'Language', 'Seen'].map((t) => h('th', { scope: 'col' }, t)))),
        sms)),
    h('section', { class: 'panel' },
      h('h3', {}, 'Email action links ', linkCount),
      h('table', { class: 'data', id: 'oob-table' },
        h('thead', {}, h('tr', {}, ['Email', 'Action', 'Code', 'Link', 'Seen'].map((t) => h('th', { scope: 'col' }, t)))),
        links)));

  const unsubscribe = subscribe((data) => {
    const now = Date.now();
    const fresh = (key) => { const at = seenAt(key); return at && now - at < FRESH_MS; };
    const codes = [...data.verificationCodes].reverse();
    const oob = [...data.oobCodes].reverse();
    replace(smsCount, `(${codes.length})`);
    replace(linkCount, `(${oob.length})`);
    replace(sms, codes.length ? codes.map((code) => h('tr', { class: fresh(`sms:${code.sessionInfo}`) ? 'fresh' : '', dataset: { phone: code.phoneNumber } },
      h('td', { class: 'mono' }, code.phoneNumber),
      h('td', {}, h('code', { class: 'sms-code' }, code.code), ' ', copyButton(code.code, 'Copy', { class: 'copy copy-code' })),
      h('td', {}, code.locale ?? '—'),
      h('td', { class: 'time' }, seen(seenAt(`sms:${code.sessionInfo}`)))))
      : h('tr', { class: 'empty' }, h('td', { colspan: 4 }, 'No SMS code yet.')));
    replace(links, oob.length ? oob.map((link) => h('tr', { class: fresh(`oob:${link.oobCode}`) ? 'fresh' : '', dataset: { email: link.email, kind: link.requestType } },
      h('td', {}, link.email, link.newEmail ? ` → ${link.newEmail}` : ''),
      h('td', {}, KINDS[link.requestType] ?? link.requestType),
      h('td', {}, h('code', { class: 'oob-code', title: link.oobCode }, `${link.oobCode.slice(0, 10)}…`), ' ', copyButton(link.oobCode, 'Copy', { class: 'copy copy-code' })),
      h('td', { class: 'link-cell' }, safeLink(link.oobLink, 'Open', { class: 'button open-link' }), ' ', copyButton(link.oobLink, 'Copy link', { class: 'copy copy-link' })),
      h('td', { class: 'time' }, seen(seenAt(`oob:${link.oobCode}`)))))
      : h('tr', { class: 'empty' }, h('td', { colspan: 5 }, 'No email action link yet.')));
  });
  return { leave: unsubscribe };
}

function seen(at) {
  return at ? formatTime(at).slice(11) : 'before this page';
}
"""#
}
