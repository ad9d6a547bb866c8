// Settings and tenants. JavaScript modules of the console page, served from
// /emulator/ui/assets/ (`ConsoleAssets`).
extension ConsoleScripts {
    static let settings = #"""
// The project's settings (/emulator/v1/projects/{p}/config): recent-login age, SMS code lifetime
// and rate limit, app verification, email privacy, duplicate emails, test phone numbers.

import { h, replace, toast, errorBox, field } from './dom.js';
import { rest, emulatorPath, scope } from './api.js';

export function settingsView(main) {
  let alive = true;
  replace(main, h('p', { class: 'summary' }, 'Loading…'));
  const configPath = emulatorPath('/config', '');

  async function show() {
    let config;
    try {
      config = await rest('GET', configPath);
    } catch (error) {
      if (alive) replace(main, errorBox(error));
      return;
    }
    if (alive) render(config);
  }

  async function save(patch, message) {
    const config = await rest('PATCH', configPath, patch);
    toast(message);
    if (alive) render(config);
    return config;
  }

  function number(id, value, min) {
    return h('input', { id, name: id, type: 'number', min: String(min), step: '1', value: String(value ?? ''), required: true });
  }

  function checkbox(id, checked) {
    return h('input', { id, name: id, type: 'checkbox', checked: Boolean(checked) });
  }

  function render(config) {
    const recentLogin = number('setting-recent-login', config.recentLoginMaxAgeSeconds, 0);
    const smsTtl = number('setting-sms-ttl', config.smsCodeTtlSeconds, 1);
    const maxSends = number('setting-sms-max-sends', config.smsRateLimit?.maxSends, 0);
    const window = number('setting-sms-window', config.smsRateLimit?.windowSeconds, 1);
    const appVerification = checkbox('setting-app-verification', config.appVerificationRequired);
    const emailPrivacy = checkbox('setting-email-privacy', config.emailPrivacyConfig?.enableImprovedEmailPrivacy);
    const duplicates = checkbox('setting-duplicate-emails', config.signIn?.allowDuplicateEmails);
    // Only on emulators that have it (email links that expire).
    const oobTtl = 'oobCodeTtlSeconds' in config ? number('setting-oob-ttl', config.oobCodeTtlSeconds, 0) : null;
    const status = h('div', { class: 'form-status', id: 'settings-status' });

    const form = h('form', { id: 'settings-form', class: 'panel', onsubmit: async (event) => {
      event.preventDefault();
      replace(status);
      const patch = {
        recentLoginMaxAgeSeconds: Number(recentLogin.value),
        smsCodeTtlSeconds: Number(smsTtl.value),
        smsRateLimit: { maxSends: Number(maxSends.value), windowSeconds: Number(window.value) },
        appVerificationRequired: appVerification.checked,
        emailPrivacyConfig: { enableImprovedEmailPrivacy: emailPrivacy.checked },
        signIn: { allowDuplicateEmails: duplicates.checked },
      };
      if (oobTtl) patch.oobCodeTtlSeconds = Number(oobTtl.value);
      try {
        await save(patch, 'Settings saved');
      } catch (error) {
        replace(status, errorBox(error));
      }
    } },
    h('h3', {}, 'Sign-in'),
    field('Recent-login age (seconds)', recentLogin,
      'Password and email changes, deletion and second-factor changes need a sign-in at most this old (CREDENTIAL_TOO_OLD_LOGIN_AGAIN); 0 never asks.'),
    h('label', { class: 'check' }, emailPrivacy, ' Email enumeration protection',
      h('span', { class: 'hint' }, ' createAuthUri lists no sign-in methods; wrong-password and unknown-email answers look alike.')),
    h('label', { class: 'check' }, duplicates, ' Allow several accounts with one email'),
    oobTtl ? field('Email link lifetime (seconds)', oobTtl, 'Action codes older than this are EXPIRED_OOB_CODE; 0 keeps them until used.') : null,
    h('h3', {}, 'Phone'),
    field('SMS code lifetime (seconds)', smsTtl, 'Codes (and TOTP enrollments) not used within this are SESSION_EXPIRED.'),
    h('div', { class: 'field' },
      h('span', { class: 'label' }, 'SMS rate limit'),
      h('span', { class: 'inline' }, maxSends, ' codes per number in ', window, ' seconds'),
      h('span', { class: 'hint' }, 'More are TOO_MANY_ATTEMPTS_TRY_LATER; 0 codes turns the limit off.')),
    h('label', { class: 'check' }, appVerification, ' Require app verification',
      h('span', { class: 'hint' }, ' SMS to numbers that are not test numbers need a reCAPTCHA token from the fake reCAPTCHA page.')),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', id: 'settings-save' }, 'Save settings')),
    status);

    replace(main,
      h('div', { class: 'toolbar' }, h('h2', {}, 'Settings'),
        h('p', { class: 'muted' }, `Project ${scope.project}` + (scope.tenant ? ' (its tenants share these settings)' : ''))),
      form,
      testNumbers(config.testPhoneNumbers ?? {}));
  }

  function testNumbers(numbers) {
    const number = h('input', { id: 'test-number-input', type: 'tel', placeholder: '+1 650-555-3434', autocomplete: 'off' });
    const code = h('input', { id: 'test-code-input', type: 'text', inputmode: 'numeric', placeholder: '654321', maxlength: 6, autocomplete: 'off' });
    const status = h('div', { class: 'form-status', id: 'test-numbers-status' });
    const entries = Object.entries(numbers).sort(([a], [b]) => a.localeCompare(b));

    const store = async (next, message) => {
      replace(status);
      try {
        await save({ testPhoneNumbers: next }, message);
      } catch (error) {
        replace(status, errorBox(error));
      }
    };

    return h('section', { class: 'panel', id: 'test-numbers' },
      h('h3', {}, 'Test phone numbers'),
      h('p', { class: 'muted' }, 'Fictional numbers with fixed codes: no SMS is sent, and they are exempt from the rate limit and app verification.'),
      h('table', { class: 'data', id: 'test-numbers-table' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Phone number'), h('th', { scope: 'col' }, 'Code'), h('th', {}))),
        h('tbody', {}, entries.length ? entries.map(([phone, fixed]) => h('tr', { dataset: { phone } },
          h('td', { class: 'mono' }, phone), h('td', { class: 'mono' }, fixed),
          h('td', {}, h('button', { type: 'button', class: 'remove-test-number', onclick: () => {
            const next = { ...numbers };
            delete next[phone];
            store(next, `${phone} removed`);
          } }, 'Remove'))))
          : h('tr', { class: 'empty' }, h('td', { colspan: 3 }, 'None.')))),
      h('form', { class: 'inline', id: 'test-number-form', onsubmit: (event) => {
        event.preventDefault();
        store({ ...numbers, [number.value]: code.value }, `${number.value} added`);
      } }, number, code, h('button', { type: 'submit', id: 'test-number-add' }, 'Add number')),
      status);
  }

  show();
  return { leave() { alive = false; } };
}
"""#

    static let tenants = #"""
// Tenants (Identity Platform multi-tenancy), through the v2 tenant routes
// (/identitytoolkit.googleapis.com/v2/projects/{p}/tenants): listed, created, switched, opened and
// deleted.

import { h, replace, toast, confirmButton, errorBox, field } from './dom.js';
import { rest, tenantsPath, scope, scopeURL } from './api.js';

// Every tenant of the project, page after page.
async function listTenants() {
  const tenants = [];
  let pageToken = '';
  do {
    const page = await rest('GET', tenantsPath(`?pageSize=1000${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`));
    tenants.push(...(page.tenants ?? []));
    // A full page carries a token even when nothing follows; an empty page ends the list.
    pageToken = page.nextPageToken && page.tenants?.length ? page.nextPageToken : '';
  } while (pageToken);
  return tenants;
}

// The header's picker: shown once there is a tenant to pick (or one is open).
export async function showTenantPicker() {
  let tenants;
  try {
    tenants = await listTenants();
  } catch {
    return; // the tenants view says what went wrong
  }
  if (tenants.length === 0 && !scope.tenant) {
    document.getElementById('tenant-picker').hidden = true;
    return;
  }
  const known = tenants.some((tenant) => tenant.tenantId === scope.tenant);
  replace(document.getElementById('tenant-select'),
    h('option', { value: '' }, '(project)'),
    tenants.map((tenant) => h('option', { value: tenant.tenantId, selected: tenant.tenantId === scope.tenant },
      tenant.displayName ? `${tenant.displayName} (${tenant.tenantId})` : tenant.tenantId)),
    scope.tenant && !known ? h('option', { value: scope.tenant, selected: true }, scope.tenant) : null);
  document.getElementById('tenant-picker').hidden = false;
}

const SWITCHES = [
  ['allowPasswordSignup', 'Email/password'],
  ['enableEmailLinkSignin', 'Email link'],
  ['enableAnonymousUser', 'Anonymous'],
  ['disableAuth', 'Auth disabled'],
];

export function tenantsView(main) {
  let alive = true;
  replace(main, h('p', { class: 'summary' }, 'Loading…'));

  async function show() {
    let tenants;
    try {
      tenants = await listTenants();
    } catch (error) {
      if (alive) replace(main, heading(), errorBox(error));
      return;
    }
    if (alive) render(tenants);
    showTenantPicker();
  }

  async function patch(tenant, mask, body, message) {
    try {
      await rest('PATCH', tenantsPath(`/${encodeURIComponent(tenant.tenantId)}?updateMask=${encodeURIComponent(mask)}`), body);
    } catch (error) {
      toast(error.message, 'error');
      await show();
      return;
    }
    await show();
    toast(message);
  }

  function render(tenants) {
    const displayName = h('input', { id: 'new-tenant-name', type: 'text', placeholder: 'staging', required: true, autocomplete: 'off' });
    const toggles = SWITCHES.filter(([key]) => key !== 'disableAuth').map(([key, label]) =>
      [key, h('input', { type: 'checkbox', id: `new-tenant-${key}`, checked: true }), label]);
    const status = h('div', { class: 'form-status' });
    replace(main,
      heading(),
      h('section', { class: 'panel' },
        h('table', { class: 'data', id: 'tenants-table' },
          h('thead', {}, h('tr', {}, ['Display name', 'Tenant id', ...SWITCHES.map(([, label]) => label), 'SMS 2FA', ''].map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', {}, tenants.length ? tenants.map((tenant) => {
            const mfaOn = ['ENABLED', 'MANDATORY'].includes(tenant.mfaConfig?.state) &&
              (tenant.mfaConfig?.enabledProviders ?? []).includes('PHONE_SMS');
            return h('tr', { dataset: { tenant: tenant.tenantId } },
              h('td', {}, tenant.displayName ?? '—'),
              h('td', { class: 'mono' }, tenant.tenantId),
              SWITCHES.map(([key, label]) => h('td', {}, h('input', {
                type: 'checkbox', class: `tenant-${key}`, checked: tenant[key] === true, 'aria-label': label,
                onchange: (event) => patch(tenant, key, { [key]: event.target.checked }, `${label} ${event.target.checked ? 'on' : 'off'} for ${tenant.tenantId}`),
              }))),
              h('td', {}, h('input', {
                type: 'checkbox', class: 'tenant-mfa', checked: mfaOn, 'aria-label': 'SMS second factors',
                onchange: (event) => patch(tenant, 'mfaConfig', { mfaConfig: event.target.checked
                  ? { state: 'ENABLED', enabledProviders: ['PHONE_SMS'] } : { state: 'DISABLED', enabledProviders: [] } },
                `SMS second factors ${event.target.checked ? 'on' : 'off'} for ${tenant.tenantId}`),
              })),
              h('td', { class: 'row-actions' },
                h('a', { class: 'button open-tenant', href: scopeURL(scope.project, tenant.tenantId, '#/accounts') }, 'Open'), ' ',
                confirmButton('Delete', `Delete tenant ${tenant.tenantId} and its accounts?`, async () => {
                  try {
                    await rest('DELETE', tenantsPath(`/${encodeURIComponent(tenant.tenantId)}`));
                  } catch (error) {
                    toast(error.message, 'error');
                    return;
                  }
                  await show();
                  toast(`Tenant ${tenant.tenantId} deleted`);
                }, { class: 'danger delete-tenant' })));
          }) : h('tr', { class: 'empty' }, h('td', { colspan: SWITCHES.length + 4 }, 'No tenants yet.'))))),
      h('form', { class: 'panel', id: 'create-tenant', onsubmit: async (event) => {
        event.preventDefault();
        const body = { displayName: displayName.value };
        for (const [key, input] of toggles) body[key] = input.checked;
        try {
          const created = await rest('POST', tenantsPath(), body);
          await show();
          toast(`Tenant ${created.tenantId} created`);
        } catch (error) {
          replace(status, errorBox(error));
        }
      } },
      h('h3', {}, 'Create a tenant'),
      field('Display name', displayName),
      h('div', { class: 'inline' }, toggles.map(([, input, label]) => h('label', { class: 'check' }, input, ` ${label}`))),
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', id: 'create-tenant-submit' }, 'Create tenant')),
      status));
  }

  function heading() {
    return h('div', { class: 'toolbar' }, h('h2', {}, 'Tenants'),
      h('p', { class: 'muted' }, `Tenants of ${scope.project}. Open one to see and change its accounts and codes.`));
  }

  show();
  return { leave() { alive = false; } };
}
"""#
}
