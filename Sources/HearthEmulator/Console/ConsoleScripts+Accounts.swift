// The accounts table and one account's page. JavaScript modules of the console page, served from
// /emulator/ui/assets/ (`ConsoleAssets`).
extension ConsoleScripts {
    static let accounts = #"""
// The accounts table: server-side search and paging (api/projects/{p}/accounts), the form that
// adds an account, and clearing every account.

import { h, replace, formatTime, toast, confirmButton, errorBox, field } from './dom.js';
import { consoleApi, rest, adminPath, emulatorPath, scope } from './api.js';

const PAGE_SIZES = [25, 50, 100, 200];
let marked = false;

export function accountsView(main, params) {
  let query = params.get('q') ?? '';
  let page = Math.max(1, Math.floor(Number(params.get('page'))) || 1);
  let size = PAGE_SIZES.includes(Number(params.get('size'))) ? Number(params.get('size')) : 50;
  let controller = null;
  let sequence = 0;
  let debounce;
  let total = 0;

  const search = h('input', {
    type: 'search', id: 'account-search', value: query, autocomplete: 'off', spellcheck: 'false',
    placeholder: 'Search by email, phone number, uid or name', 'aria-label': 'Search accounts',
    oninput: () => {
      clearTimeout(debounce);
      debounce = setTimeout(() => { query = search.value; page = 1; load(); }, 120);
    },
  });
  const summary = h('p', { id: 'accounts-summary', class: 'summary' }, 'Loading…');
  const rows = h('tbody', { id: 'accounts-rows' });
  const columns = ['UID', 'Email', 'Phone', 'Display name', 'Providers', 'Created', 'Last sign-in', 'Status'];
  const table = h('table', { class: 'data accounts', id: 'accounts-table' },
    h('thead', {}, h('tr', {}, columns.map((title) => h('th', { scope: 'col' }, title)))), rows);
  const pager = h('nav', { class: 'pager', id: 'accounts-pager', 'aria-label': 'Pages' });
  const form = createForm();
  const clear = h('span', {});

  replace(main,
    h('div', { class: 'toolbar' },
      h('h2', {}, 'Accounts'),
      search,
      h('button', { type: 'button', id: 'add-account', class: 'primary', onclick: () => {
        form.hidden = !form.hidden;
        if (!form.hidden) form.querySelector('input').focus();
      } }, 'Add user'),
      clear),
    form,
    summary,
    h('div', { class: 'table-wrap' }, table),
    pager);

  function updateClear() {
    replace(clear, confirmButton('Clear all accounts',
      `Delete all ${total.toLocaleString('en-US')} accounts of ${scope.tenant ? `tenant ${scope.tenant}` : scope.project}?`,
      async () => {
        try {
          await rest('DELETE', emulatorPath('/accounts'));
          toast('Every account was deleted');
          page = 1;
          await load();
        } catch (error) {
          toast(error.message, 'error');
        }
      }, { id: 'clear-accounts', disabled: total === 0 }));
  }

  function keepInHash() {
    const state = new URLSearchParams();
    if (query) state.set('q', query);
    if (page > 1) state.set('page', String(page));
    if (size !== 50) state.set('size', String(size));
    const text = state.toString();
    history.replaceState(null, '', `${location.pathname}${location.search}#/accounts${text ? `?${text}` : ''}`);
  }

  async function load() {
    controller?.abort();
    controller = new AbortController();
    const mine = ++sequence;
    keepInHash();
    const request = new URLSearchParams({ offset: String((page - 1) * size), limit: String(size) });
    if (query.trim()) request.set('q', query.trim());
    try {
      const data = await consoleApi(`/accounts?${request}`, { signal: controller.signal });
      if (mine !== sequence) return;
      const pages = Math.max(1, Math.ceil(data.matched / size));
      if (page > pages) {
        page = pages;
        await load();
        return;
      }
      render(data, pages);
    } catch (error) {
      if (error.name === 'AbortError') return;
      replace(summary, errorBox(error));
      replace(rows);
    }
  }

  function render(data, pages) {
    total = data.total;
    updateClear();
    replace(rows, data.users.map(row));
    if (data.users.length === 0) {
      rows.append(h('tr', { class: 'empty' }, h('td', { colspan: columns.length },
        data.total === 0 ? 'No accounts yet: sign up from an app, or add one here.' : `No account matches “${query.trim()}”.`)));
    }
    const first = data.matched === 0 ? 0 : data.offset + 1;
    const last = data.offset + data.users.length;
    const count = (n) => n.toLocaleString('en-US');
    replace(summary, query.trim()
      ? `${count(data.matched)} of ${count(data.total)} accounts match “${query.trim()}”` + (data.matched ? ` · showing ${count(first)}–${count(last)}` : '')
      : `${count(data.total)} account${data.total === 1 ? '' : 's'}` + (data.total ? ` · showing ${count(first)}–${count(last)}` : ''));
    replace(pager,
      h('button', { type: 'button', id: 'page-previous', disabled: page <= 1, onclick: () => { page -= 1; load(); } }, '‹ Previous'),
      h('span', { id: 'page-status' }, `Page ${count(page)} of ${count(pages)}`),
      h('button', { type: 'button', id: 'page-next', disabled: page >= pages, onclick: () => { page += 1; load(); } }, 'Next ›'),
      h('label', { class: 'page-size' }, 'Rows per page ',
        h('select', { id: 'page-size', onchange: (event) => { size = Number(event.target.value); page = 1; load(); } },
          PAGE_SIZES.map((n) => h('option', { value: String(n), selected: n === size }, String(n))))));
    main.dataset.accountsRendered = String(sequence);
    if (!marked) {
      marked = true;
      // After the frame that shows the rows.
      requestAnimationFrame(() => setTimeout(() => performance.mark('hearth:accounts-rendered'), 0));
    }
  }

  function row(user) {
    const href = `#/accounts/${encodeURIComponent(user.localId)}`;
    const providers = user.providers.length ? user.providers : ['anonymous'];
    return h('tr', {
      class: user.disabled ? 'is-disabled' : '', dataset: { uid: user.localId },
      onclick: (event) => { if (!event.target.closest('a, button')) location.hash = href; },
    },
    h('td', { class: 'mono' }, h('a', { href, class: 'uid' }, user.localId)),
    h('td', {}, user.email ?? '—', user.email && user.emailVerified ? h('span', { class: 'tick', title: 'Email verified' }, ' ✓') : null),
    h('td', { class: 'mono' }, user.phoneNumber ?? '—'),
    h('td', {}, user.displayName ?? '—'),
    h('td', {}, providers.map((id) => h('span', { class: 'chip' }, id)),
      user.secondFactors ? h('span', { class: 'chip mfa', title: 'Second factors' }, `2FA ×${user.secondFactors}`) : null),
    h('td', { class: 'time' }, formatTime(user.createdAt)),
    h('td', { class: 'time' }, formatTime(user.lastLoginAt)),
    h('td', {}, user.disabled ? h('span', { class: 'badge off' }, 'Disabled') : h('span', { class: 'badge on' }, 'Enabled')));
  }

  load();
  return { leave() { controller?.abort(); clearTimeout(debounce); } };
}

// Admin account creation, as the Admin SDKs' createUser does it (projects/{p}/accounts), then the
// custom claims, which creation does not take.
function createForm() {
  const input = (id, type = 'text', extra = {}) => h('input', { id, name: id, type, autocomplete: 'off', ...extra });
  const email = input('new-email', 'email');
  const password = input('new-password', 'text', { minlength: 6 });
  const displayName = input('new-display-name');
  const phone = input('new-phone', 'tel', { placeholder: '+16505550100' });
  const uid = input('new-uid', 'text', { placeholder: 'generated when empty' });
  const verified = input('new-email-verified', 'checkbox');
  const claims = h('textarea', { id: 'new-claims', rows: 2, placeholder: '{"role": "admin"}', spellcheck: 'false' });
  const status = h('div', { class: 'form-status' });

  const form = h('form', { id: 'create-account', class: 'panel', hidden: true, onsubmit: async (event) => {
    event.preventDefault();
    replace(status);
    let parsedClaims = null;
    if (claims.value.trim()) {
      try {
        parsedClaims = JSON.parse(claims.value);
      } catch (error) {
        replace(status, errorBox(`The custom claims are not JSON: ${error.message}`));
        return;
      }
      if (typeof parsedClaims !== 'object' || parsedClaims === null || Array.isArray(parsedClaims)) {
        replace(status, errorBox('The custom claims must be a JSON object.'));
        return;
      }
    }
    const body = {};
    if (email.value.trim()) body.email = email.value.trim();
    if (password.value) body.password = password.value;
    if (displayName.value) body.displayName = displayName.value;
    if (phone.value.trim()) body.phoneNumber = phone.value.trim();
    if (uid.value.trim()) body.localId = uid.value.trim();
    if (verified.checked) body.emailVerified = true;
    if (scope.tenant) body.tenantId = scope.tenant;
    try {
      const created = await rest('POST', adminPath('/accounts'), body);
      if (parsedClaims) {
        await rest('POST', adminPath('/accounts:update'), { localId: created.localId, customAttributes: JSON.stringify(parsedClaims) });
      }
      toast(`Account ${created.localId} created`);
      location.hash = `#/accounts/${encodeURIComponent(created.localId)}`;
    } catch (error) {
      replace(status, errorBox(error));
    }
  } },
  h('h3', {}, 'Add a user'),
  h('div', { class: 'grid' },
    field('Email', email), field('Password', password, 'at least 6 characters'),
    field('Display name', displayName), field('Phone number', phone, 'E.164, e.g. +16505550100'),
    field('UID', uid), field('Custom claims (JSON)', claims)),
  h('label', { class: 'check' }, verified, ' Email verified'),
  h('div', { class: 'actions' },
    h('button', { type: 'submit', class: 'primary', id: 'create-account-submit' }, 'Create user'),
    h('button', { type: 'button', onclick: () => { form.hidden = true; } }, 'Cancel')),
  status);
  return form;
}
"""#

    static let user = #"""
// One account: profile, providers, second factors, metadata and custom claims, with the actions a
// person takes on it (disable / enable, set a password, mark the email verified, edit claims, delete).

import { h, replace, formatTime, formatSeconds, toast, confirmButton, errorBox, copyButton } from './dom.js';
import { rest, adminPath, scope } from './api.js';

export function userView(main, uid) {
  let alive = true;
  replace(main, h('p', { class: 'summary' }, 'Loading…'));

  async function lookup() {
    const data = await rest('POST', adminPath('/accounts:lookup'), { localId: [uid] });
    return data.users?.[0] ?? null;
  }

  async function show() {
    let user;
    try {
      user = await lookup();
    } catch (error) {
      if (alive) replace(main, back(), errorBox(error));
      return;
    }
    if (!alive) return;
    if (!user) {
      replace(main, back(), h('p', { class: 'error', id: 'user-missing' }, `No account has the uid “${uid}”.`));
      return;
    }
    render(user);
  }

  // Runs an accounts:update (or another change), shows the account as it is afterwards, then says so.
  async function change(description, request) {
    try {
      await request();
    } catch (error) {
      toast(error.message, 'error');
      throw error;
    }
    await show();
    toast(description);
  }

  const update = (body) => rest('POST', adminPath('/accounts:update'), { localId: uid, ...body });

  function render(user) {
    const providers = user.providerUserInfo ?? [];
    const factors = user.mfaInfo ?? [];
    const anonymous = providers.length === 0 && !user.email && !user.phoneNumber;
    const title = user.displayName || user.email || user.phoneNumber || (anonymous ? 'Anonymous account' : user.localId);

    const password = h('input', { id: 'set-password-input', type: 'text', autocomplete: 'off', minlength: 6, placeholder: 'new password' });
    const passwordForm = h('form', { id: 'set-password', class: 'inline', onsubmit: async (event) => {
      event.preventDefault();
      if (password.value.length < 6) {
        toast('A password has at least 6 characters', 'error');
        return;
      }
      await change('Password set', () => update({ password: password.value })).catch(() => {});
    } }, password, h('button', { type: 'submit', id: 'set-password-submit' }, 'Set password'));

    const claimsText = prettyClaims(user.customAttributes);
    const claims = h('textarea', { id: 'claims-editor', rows: Math.min(12, Math.max(4, claimsText.split('\n').length + 1)), spellcheck: 'false' }, claimsText);
    const claimsStatus = h('div', { class: 'form-status', id: 'claims-status' });
    const claimsForm = h('form', { id: 'claims-form', onsubmit: async (event) => {
      event.preventDefault();
      replace(claimsStatus);
      let parsed;
      try {
        parsed = claims.value.trim() ? JSON.parse(claims.value) : {};
      } catch (error) {
        replace(claimsStatus, errorBox(`Not JSON: ${error.message}`));
        return;
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        replace(claimsStatus, errorBox('Custom claims are a JSON object, like {"role": "admin"}.'));
        return;
      }
      await change('Custom claims saved', () => update({ customAttributes: JSON.stringify(parsed) }))
        .catch((error) => { if (claimsStatus.isConnected) replace(claimsStatus, errorBox(error)); });
    } }, claims, h('div', { class: 'actions' }, h('button', { type: 'submit', id: 'claims-save' }, 'Save claims')), claimsStatus);

    const disabled = user.disabled === true;
    replace(main,
      back(),
      h('div', { class: 'user-head' },
        h('h2', { id: 'user-title' }, title),
        h('span', { class: `badge ${disabled ? 'off' : 'on'}`, id: 'user-status' }, disabled ? 'Disabled' : 'Enabled'),
        anonymous ? h('span', { class: 'badge' }, 'Anonymous') : null),
      h('p', { class: 'mono uid-line' }, 'UID ', h('span', { id: 'user-uid' }, user.localId), ' ', copyButton(user.localId, 'Copy UID')),
      h('div', { class: 'actions user-actions' },
        h('button', { type: 'button', id: 'toggle-disabled', onclick: () =>
          change(disabled ? 'Account enabled' : 'Account disabled', () => update({ disableUser: !disabled })).catch(() => {}) },
        disabled ? 'Enable account' : 'Disable account'),
        user.email ? h('button', { type: 'button', id: 'toggle-verified', onclick: () =>
          change(user.emailVerified ? 'Email marked unverified' : 'Email marked verified',
            () => update({ emailVerified: !user.emailVerified })).catch(() => {}) },
        user.emailVerified ? 'Mark email unverified' : 'Mark email verified') : null,
        confirmButton('Delete account', `Delete ${title}?`, async () => {
          try {
            await rest('POST', adminPath('/accounts:delete'), { localId: uid });
          } catch (error) {
            toast(error.message, 'error');
            return;
          }
          toast('Account deleted');
          location.hash = '#/accounts';
        }, { id: 'delete-account' })),
      h('div', { class: 'columns' },
        h('section', { class: 'panel' },
          h('h3', {}, 'Profile'),
          list([
            ['Email', user.email ? [h('span', { id: 'user-email' }, user.email), ' ',
              h('span', { id: 'user-email-verified', class: `badge ${user.emailVerified ? 'on' : ''}` }, user.emailVerified ? 'verified' : 'not verified')] : '—'],
            ['Phone number', user.phoneNumber ?? '—'],
            ['Display name', h('span', { id: 'user-display-name' }, user.displayName ?? '—')],
            ['Photo URL', user.photoUrl ?? '—'],
            ['Password', user.passwordHash ? `set ${formatTime(user.passwordUpdatedAt)}` : 'none'],
            ['Tenant', user.tenantId ?? '—'],
          ], 'user-profile'),
          h('h4', {}, 'Set a password'),
          passwordForm),
        h('section', { class: 'panel' },
          h('h3', {}, 'Metadata'),
          list([
            ['Created', formatTime(user.createdAt)],
            ['Last sign-in', formatTime(user.lastLoginAt)],
            ['Last token refresh', formatTime(user.lastRefreshAt)],
            ['Password updated', formatTime(user.passwordUpdatedAt)],
            ['Tokens valid since', formatSeconds(user.validSince)],
            ['Email link sign-in', user.emailLinkSignin ? 'yes' : 'no'],
            ['Custom token sign-in', user.customAuth ? 'yes' : 'no'],
          ], 'user-metadata'))),
      h('section', { class: 'panel' },
        h('h3', {}, 'Sign-in providers'),
        providers.length === 0 ? h('p', { class: 'muted' }, 'None: an anonymous account.') :
          h('table', { class: 'data', id: 'user-providers' },
            h('thead', {}, h('tr', {}, ['Provider', 'Identifier', 'Email', 'Display name', 'Phone'].map((t) => h('th', { scope: 'col' }, t)))),
            h('tbody', {}, providers.map((p) => h('tr', { dataset: { provider: p.providerId } },
              h('td', {}, h('span', { class: 'chip' }, p.providerId)),
              h('td', { class: 'mono' }, p.rawId ?? p.federatedId ?? '—'),
              h('td', {}, p.email ?? '—'),
              h('td', {}, p.displayName ?? '—'),
              h('td', { class: 'mono' }, p.phoneNumber ?? '—')))))),
      h('section', { class: 'panel' },
        h('h3', {}, 'Second factors'),
        factors.length === 0 ? h('p', { class: 'muted', id: 'user-factors-none' }, 'No second factor enrolled.') :
          h('table', { class: 'data', id: 'user-factors' },
            h('thead', {}, h('tr', {}, ['Name', 'Factor', 'Enrolled', 'Enrollment id'].map((t) => h('th', { scope: 'col' }, t)))),
            h('tbody', {}, factors.map((f) => h('tr', {},
              h('td', {}, f.displayName ?? '—'),
              h('td', { class: 'mono' }, f.phoneInfo ? `SMS ${f.phoneInfo}` : (f.totpInfo ? 'TOTP authenticator' : '—')),
              h('td', { class: 'time' }, formatTime(f.enrolledAt)),
              h('td', { class: 'mono' }, f.mfaEnrollmentId)))))),
      h('section', { class: 'panel' },
        h('h3', {}, 'Custom claims'),
        h('p', { class: 'muted' }, 'A JSON object added to the account\u2019s ID tokens (at most 1000 characters; reserved names such as "sub" are refused).'),
        claimsForm));
  }

  function back() {
    return h('p', { class: 'back' }, h('a', { href: '#/accounts', id: 'back-to-accounts' }, '‹ All accounts'),
      scope.tenant ? ` · tenant ${scope.tenant}` : '');
  }

  show();
  return { leave() { alive = false; } };
}

function prettyClaims(text) {
  if (!text) return '{}';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function list(entries, id) {
  return h('dl', { class: 'facts', id }, entries.map(([name, value]) => [h('dt', {}, name), h('dd', {}, value)]));
}
"""#
}
