// The shell (tabs, routing, header), DOM helpers and the API client. JavaScript modules of the console page, served from
// /emulator/ui/assets/ (`ConsoleAssets`).
extension ConsoleScripts {
    static let app = #"""
// The console's shell: the project and tenant in the header, the tabs, and the view the address's
// fragment names (#/accounts, #/accounts/{uid}, #/codes, #/settings, #/tenants, #/data).

import { scope, defaultProject, scopeURL } from './api.js';
import { accountsView } from './accounts.js';
import { userView } from './user.js';
import { codesView } from './codes.js';
import { settingsView } from './settings.js';
import { tenantsView, showTenantPicker } from './tenants.js';
import { transferView } from './transfer.js';
import { subscribe, onConnection } from './feed.js';

const views = {
  accounts: (main, rest, params) => (rest ? userView(main, rest) : accountsView(main, params)),
  codes: (main) => codesView(main),
  settings: (main) => settingsView(main),
  tenants: (main) => tenantsView(main),
  data: (main) => transferView(main),
};

const main = document.getElementById('view');
let current = {};

function route() {
  const hash = location.hash.replace(/^#\/?/, '');
  const [path, query = ''] = hash.split('?', 2);
  const [name, ...rest] = path.split('/');
  if (!views[name]) {
    history.replaceState(null, '', `${location.pathname}${location.search}#/accounts`);
    route();
    return;
  }
  current.leave?.();
  for (const tab of document.querySelectorAll('#tabs a')) {
    tab.classList.toggle('active', tab.dataset.tab === name);
    if (tab.dataset.tab === name) tab.setAttribute('aria-current', 'page'); else tab.removeAttribute('aria-current');
  }
  const id = rest.length ? decodeURIComponent(rest.join('/')) : '';
  current = views[name](main, id, new URLSearchParams(query)) ?? {};
  main.focus({ preventScroll: true });
}

function header() {
  const project = document.getElementById('project-input');
  project.value = scope.project;
  project.placeholder = defaultProject;
  document.getElementById('scope-form').addEventListener('submit', (event) => {
    event.preventDefault();
    location.href = scopeURL(project.value.trim() || defaultProject, '', '#/accounts');
  });
  const picker = document.getElementById('tenant-select');
  picker.addEventListener('change', () => {
    // An account belongs to one scope: the other scope opens on its table.
    const hash = location.hash.startsWith('#/accounts/') ? '#/accounts' : location.hash;
    location.href = scopeURL(scope.project, picker.value, hash);
  });
  document.title = `${scope.tenant ? `${scope.tenant} · ` : ''}${scope.project} · hearth-emulator`;
  showTenantPicker();
}

function liveStatus() {
  const dot = document.getElementById('connection');
  onConnection((up, message) => {
    dot.className = up ? 'connection up' : 'connection down';
    dot.title = up ? 'Connected to hearth-emulator' : message;
    dot.textContent = up ? 'live' : 'offline';
  });
  const badge = document.getElementById('codes-badge');
  subscribe((data) => {
    const count = data.verificationCodes.length + data.oobCodes.length;
    badge.textContent = count ? String(count) : '';
    badge.hidden = count === 0;
  });
}

if (scope.tenant) document.getElementById('scope-note').textContent = `tenant ${scope.tenant}`;
header();
liveStatus();
window.addEventListener('hashchange', route);
route();
"""#

    static let dom = #"""
// DOM building without HTML strings: every value a user controls becomes a text node or a
// property, never markup.

export function h(tag, props, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') element.className = value;
    else if (name === 'dataset') Object.assign(element.dataset, value);
    else if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (name === 'value' || name === 'checked' || name === 'disabled') element[name] = value;
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

export function replace(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

const pad = (number) => String(number).padStart(2, '0');

// Milliseconds (a number or the decimal strings the API uses) or an RFC 3339 string, as local time.
export function formatTime(value) {
  if (value === undefined || value === null || value === '') return '—';
  const date = /^\d+$/.test(String(value)) ? new Date(Number(value)) : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

// Seconds since the epoch (validSince).
export function formatSeconds(value) {
  return value ? formatTime(Number(value) * 1000) : '—';
}

let toastTimer;
export function toast(message, kind = 'info') {
  const element = document.getElementById('toast');
  element.textContent = message;
  element.className = `toast visible ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { element.className = 'toast'; }, kind === 'error' ? 6000 : 2500);
}

// Clipboard access needs a secure context (localhost is one); elsewhere the selection is copied.
async function copyText(text, button) {
  let copied = false;
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      copied = true;
    } catch {
      copied = false;
    }
  }
  if (!copied) {
    const area = h('textarea', { class: 'offscreen', readonly: true, 'aria-hidden': 'true' }, text);
    document.body.append(area);
    area.select();
    try {
      copied = document.execCommand('copy');
    } catch {
      copied = false;
    }
    area.remove();
  }
  if (button) {
    const label = button.textContent;
    button.textContent = copied ? 'Copied' : 'Copy failed';
    button.classList.add('done');
    setTimeout(() => { button.textContent = label; button.classList.remove('done'); }, 1500);
  }
  toast(copied ? 'Copied to the clipboard' : 'The browser refused to copy', copied ? 'info' : 'error');
  return copied;
}

export function copyButton(text, label = 'Copy', extra = {}) {
  return h('button', { type: 'button', class: 'copy', title: `Copy ${text}`, ...extra,
    onclick: (event) => copyText(text, event.currentTarget) }, label);
}

// A link only when the URL is http(s): a value that came from a request never becomes javascript:.
export function safeLink(url, label, props = {}) {
  try {
    const parsed = new URL(url, location.href);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') {
      return h('a', { href: parsed.href, target: '_blank', rel: 'noopener noreferrer', ...props }, label);
    }
  } catch {
    // not a URL: shown as text below
  }
  return h('span', {}, label);
}

// A two-step button: the first click asks, the second does it.
export function confirmButton(label, question, action, props = {}) {
  const wrapper = h('span', { class: 'confirm' });
  const start = h('button', { type: 'button', class: 'danger', ...props, onclick: () => {
    replace(wrapper,
      h('span', { class: 'question' }, question), ' ',
      h('button', { type: 'button', class: 'danger', id: props.id ? `${props.id}-confirm` : undefined,
        onclick: async (event) => {
          event.currentTarget.disabled = true;
          try {
            await action();
          } finally {
            if (wrapper.isConnected) replace(wrapper, start);
          }
        } }, label),
      ' ',
      h('button', { type: 'button', onclick: () => replace(wrapper, start) }, 'Cancel'));
  } }, label);
  return append(wrapper, [start]);
}

export function errorBox(error) {
  return h('p', { class: 'error', role: 'alert' }, error instanceof Error ? error.message : String(error));
}

export function field(label, input, hint) {
  return h('label', { class: 'field' }, h('span', { class: 'label' }, label), input,
    hint ? h('span', { class: 'hint' }, hint) : null);
}
"""#

    static let api = #"""
// The console's way to hearth-emulator: its own API (/emulator/ui/api/...) and the REST surface
// through it (/emulator/ui/api/rest/...), each request carrying the page's token.

const token = document.querySelector('meta[name="hearth-console-token"]').content;
export const defaultProject = document.querySelector('meta[name="hearth-default-project"]').content;

const params = new URLSearchParams(location.search);
export const scope = {
  project: params.get('project') || defaultProject,
  tenant: params.get('tenant') || '',
};

class ApiFailure extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function call(url, { method = 'GET', body, signal, raw = false } = {}) {
  const headers = { 'X-Hearth-Console-Token': token };
  let payload;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, { method, headers, body: payload, signal, credentials: 'same-origin', cache: 'no-store' });
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new ApiFailure(0, 'hearth-emulator cannot be reached: is it still running?');
  }
  if (raw && response.ok) return response;
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    const message = data?.error?.message ?? data?.authEmulator?.error ?? (text.trim() || response.statusText);
    throw new ApiFailure(response.status, message);
  }
  return data ?? {};
}

const tenantPart = (tenant) => (tenant ? `/tenants/${encodeURIComponent(tenant)}` : '');

// Identity Toolkit admin paths of the project (or tenant), e.g. accounts:lookup.
export function adminPath(suffix, tenant = scope.tenant) {
  return `/identitytoolkit.googleapis.com/v1/projects/${encodeURIComponent(scope.project)}${tenantPart(tenant)}${suffix}`;
}

// Emulator-only paths (accounts, codes, config).
export function emulatorPath(suffix, tenant = scope.tenant) {
  return `/emulator/v1/projects/${encodeURIComponent(scope.project)}${tenantPart(tenant)}${suffix}`;
}

export function tenantsPath(suffix = '') {
  return `/identitytoolkit.googleapis.com/v2/projects/${encodeURIComponent(scope.project)}/tenants${suffix}`;
}

export function rest(method, path, body, options = {}) {
  return call(`/emulator/ui/api/rest${path}`, { method, body, ...options });
}

export function consoleApi(suffix, options = {}, tenant = scope.tenant) {
  return call(`/emulator/ui/api/projects/${encodeURIComponent(scope.project)}${tenantPart(tenant)}${suffix}`, options);
}

// The page for another project or tenant (a full load: everything shown belongs to one scope).
export function scopeURL(project, tenant, hash = location.hash) {
  const query = new URLSearchParams();
  if (project && project !== defaultProject) query.set('project', project);
  if (tenant) query.set('tenant', tenant);
  const search = query.toString();
  return `${location.pathname}${search ? `?${search}` : ''}${hash}`;
}
"""#
}
