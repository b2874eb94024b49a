// The setup page's progressive script: copy buttons, actions without a reload, and the live status (polled).
// Everything it writes into the page goes through textContent or element properties, never HTML parsing:
// directory names and identity-provider error texts are not ours to trust.
'use strict';

(function () {
  const body = document.body;
  const statusUrl = body.dataset.status;
  const csrf = body.dataset.csrf;
  if (!statusUrl || !csrf) return; // a message page (link gone, limit reached): nothing to do
  const base = statusUrl.replace(/\/status$/, '');
  const $ = (id) => document.getElementById(id);
  const POLL_MS = 2000;
  const HIDDEN_POLL_MS = 10000;
  const SCRIPTED = new Set([
    'scim-tokens',
    'scim-tokens/revoke',
    'google/sync',
    'microsoft/sync',
    'hris/sync',
    'attributes/preview',
    'attributes/save',
  ]);

  function announce(text) {
    const el = $('announce');
    if (!el) return;
    el.textContent = '';
    setTimeout(() => (el.textContent = text), 50);
  }

  function notice(kind, text) {
    const el = $('notice');
    if (!el) return;
    el.className = 'notice ' + kind;
    el.textContent = text;
    el.hidden = false;
  }

  function localTime(iso) {
    const d = new Date(iso);
    return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
  }

  /** An element with its properties set and its children appended. */
  function el(tag, props, ...children) {
    const e = Object.assign(document.createElement(tag), props);
    e.append(...children);
    return e;
  }

  function timeEl(iso, none) {
    if (!iso) return document.createTextNode(none || 'never');
    return el('time', { dateTime: iso, textContent: localTime(iso) });
  }

  function localizeTimes(root) {
    for (const t of root.querySelectorAll('time[datetime]')) t.textContent = localTime(t.getAttribute('datetime'));
  }

  function cell(label, content) {
    const td = document.createElement('td');
    if (label) td.dataset.label = label;
    if (content instanceof Node) td.append(content);
    else td.textContent = content;
    return td;
  }

  // Copy buttons ---------------------------------------------------------------------------------------

  async function copy(input) {
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      input.focus();
      input.select();
      document.execCommand('copy');
    }
    announce('Copied to the clipboard');
  }

  document.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-copy]');
    if (!button) return;
    const input = $(button.dataset.copy);
    if (!input) return;
    copy(input).then(() => {
      const label = button.querySelector('.label');
      if (!label) return;
      label.textContent = 'Copied';
      setTimeout(() => (label.textContent = 'Copy'), 1500);
    });
  });

  // Actions ----------------------------------------------------------------------------------------------

  async function post(action, fields) {
    const form = new URLSearchParams(fields);
    form.set('csrf', csrf);
    const res = await fetch(base + '/' + action, {
      method: 'POST',
      headers: {
        Accept: 'application/json',
        'X-CSRF-Token': csrf,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: form.toString(),
      credentials: 'same-origin',
    });
    const answer = await res.json().catch(() => ({ error: { message: 'Unexpected answer (' + res.status + ')' } }));
    if (answer.error && answer.error.gone) linkGone();
    if (!res.ok) {
      const err = new Error((answer.error && answer.error.message) || 'Request failed (' + res.status + ')');
      err.field = answer.error && answer.error.field;
      throw err;
    }
    return answer.data;
  }

  function showNewToken(created) {
    const box = $('new-token');
    const input = $('new-token-value');
    if (!box || !input) return;
    input.value = created.token;
    box.hidden = false;
    input.focus();
    input.select();
    announce('A new token was created. Copy it now: it is shown only once.');
  }

  // Attributes -------------------------------------------------------------------------------------------

  // "Use" fills the source field last focused (else the first empty one): the paths table is below the fields.
  let lastSource = null;
  for (const b of document.querySelectorAll('button[data-use-path]')) b.hidden = false;
  document.addEventListener('focusin', (event) => {
    if (event.target.matches && event.target.matches('input[data-attribute]')) lastSource = event.target;
  });
  document.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-use-path]');
    if (!button) return;
    const inputs = [...document.querySelectorAll('input[data-attribute]')];
    const input = lastSource || inputs.find((i) => i.value === '') || inputs[0];
    if (!input) return;
    input.value = button.dataset.usePath;
    input.focus();
    announce(input.dataset.attribute + ' now reads ' + input.value);
  });

  function clearSourceErrors() {
    for (const input of document.querySelectorAll('input[data-attribute]')) {
      input.removeAttribute('aria-invalid');
      const error = $(input.id + '-error');
      if (error) error.hidden = true;
    }
  }

  /** An error naming a source field is shown beside it; false when it names none on the page. */
  function showSourceError(err) {
    const input =
      err.field && [...document.querySelectorAll('input[data-attribute]')].find((i) => i.name === err.field);
    const error = input && $(input.id + '-error');
    if (!error) return false;
    error.textContent = err.message;
    error.hidden = false;
    input.setAttribute('aria-invalid', 'true');
    input.focus();
    return true;
  }

  function showPreview(data) {
    const box = $('attributes-preview');
    const table = $('attributes-preview-table');
    if (!box || !table) return;
    const names = [...document.querySelectorAll('input[data-attribute]')].map((i) => i.dataset.attribute);
    const head = el('tr', {}, ...['User', ...names].map((label) => el('th', { scope: 'col', textContent: label })));
    table.tHead.replaceChildren(head);
    const shown = (v) => (typeof v === 'string' ? v : JSON.stringify(v));
    const rows = data.users.map((u) => {
      const tr = document.createElement('tr');
      tr.append(
        cell('User', u.user_name),
        ...names.map((n) => cell(n, Object.hasOwn(u.custom_attributes, n) ? shown(u.custom_attributes[n]) : '—')),
      );
      return tr;
    });
    table.tBodies[0].replaceChildren(...rows);
    box.hidden = false;
    announce('Preview of ' + rows.length + (rows.length === 1 ? ' user' : ' users') + ' below');
  }

  function savedSources() {
    for (const input of document.querySelectorAll('input[data-attribute]')) {
      const hint = $(input.id + '-hint');
      if (hint) hint.textContent = input.value.trim() === '' ? 'Not mapped yet.' : 'Source in use.';
    }
    notice('success', "Saved: the users' attributes follow the new sources.");
  }

  document.addEventListener('submit', (event) => {
    const form = event.target;
    // A form with two actions (Preview, Save): the button pressed names its own.
    const action = (event.submitter && event.submitter.dataset.action) || form.dataset.action;
    if (!action || !SCRIPTED.has(action)) return; // "Connect …": a real navigation (to the consent page and back)
    event.preventDefault();
    const fields = Object.fromEntries(new FormData(form));
    const button = event.submitter || form.querySelector('button[type="submit"]');
    if (button) button.disabled = true;
    if (action.startsWith('attributes/')) clearSourceErrors();
    post(action, fields)
      .then((data) => {
        if (action === 'attributes/preview') showPreview(data);
        if (action === 'attributes/save') savedSources();
        if (action === 'scim-tokens') showNewToken(data);
        if (action === 'scim-tokens/revoke') {
          notice('success', 'The token was revoked: it stops working at once.');
          announce('Token revoked');
        }
        if (action.endsWith('/sync')) {
          const failed = data && data.failed > 0;
          notice(failed ? 'error' : 'success', failed ? 'The sync failed; see the error below.' : 'Synced.');
        }
      })
      .catch((err) => showSourceError(err) || notice('error', err.message))
      .then(() => {
        // The token list decides whether "Create token" is enabled again (at most two tokens).
        if (button && action !== 'scim-tokens') button.disabled = false;
        lastTokens = '';
        return refresh();
      })
      .catch(() => undefined);
  });

  // Live status --------------------------------------------------------------------------------------------

  let lastTokens = '';
  let lastRecent = '';
  let lastState = '';
  let stopped = false;

  function linkGone() {
    if (stopped) return;
    stopped = true;
    const main = document.querySelector('main');
    if (!main) return;
    main.replaceChildren();
    const card = el(
      'div',
      { className: 'card' },
      el('h2', { textContent: 'This setup link is no longer valid' }),
      el('p', {
        textContent: 'It has been revoked or has expired. Ask the person who sent it to you for a new setup link.',
      }),
    );
    card.setAttribute('role', 'alert');
    main.append(card);
  }

  function renderTokens(tokens) {
    const table = $('tokens');
    if (!table) return;
    const key = JSON.stringify(tokens);
    if (key === lastTokens) return;
    lastTokens = key;
    const managed = table.dataset.managed === 'true';
    const rows = tokens.map((t) => {
      const tr = document.createElement('tr');
      tr.dataset.tokenId = t.id;
      const label = t.id === 'scim-secret' ? 'Initial token' : 'Token ' + t.id;
      const name = el('span', { textContent: label });
      if (t.expires_at) name.append(el('span', { className: 'hint' }, ' (works until ', timeEl(t.expires_at), ')'));
      let act;
      if (t.id === 'scim-secret' && managed) {
        act = el('span', { className: 'hint', textContent: 'Managed by your provider' });
      } else {
        const revoke = el('button', { type: 'submit', className: 'secondary', textContent: 'Revoke' });
        revoke.append(el('span', { className: 'visually-hidden', textContent: ' ' + label }));
        act = el(
          'form',
          { method: 'post', action: base + '/scim-tokens/revoke' },
          el('input', { type: 'hidden', name: 'token_id', value: t.id }),
          revoke,
        );
        act.dataset.action = 'scim-tokens/revoke';
      }
      tr.append(
        cell('Token', name),
        cell('Created', timeEl(t.created_at)),
        cell('Last used', timeEl(t.last_used_at)),
        cell('', act),
      );
      return tr;
    });
    table.tBodies[0].replaceChildren(...rows);
    const full = tokens.length >= 2;
    const create = $('create-token');
    if (create) create.disabled = full;
    const fullNote = $('tokens-full');
    if (fullNote) fullNote.hidden = !full;
    const none = $('no-tokens');
    if (none) none.hidden = tokens.length > 0;
  }

  function renderRecent(recent) {
    const table = $('recent');
    if (!table) return;
    const key = JSON.stringify(recent);
    if (key === lastRecent) return;
    lastRecent = key;
    const rows = recent.map((e) => {
      const request = el('code', { textContent: e.method + ' ' + e.path });
      const cells = [
        cell('Time', timeEl(e.at)),
        cell('Request', request),
        cell('Status', String(e.status)),
        cell('Error', e.error || ''),
      ];
      return el('tr', { className: e.status >= 400 ? 'failed' : 'ok' }, ...cells);
    });
    table.tBodies[0].replaceChildren(...rows);
    table.hidden = recent.length === 0;
    const empty = $('recent-empty');
    if (empty) empty.hidden = recent.length > 0;
  }

  function renderSync(pull, syncText) {
    if (!pull || !$('sync-state')) return;
    const { status } = pull;
    $('sync-state').textContent = syncText;
    $('sync-last-success').replaceChildren(timeEl(status.last_success_at));
    const listed = $('sync-listed');
    const count = (n, what) => n + ' ' + what + (n === 1 ? '' : 's');
    if (listed && status.listed)
      listed.textContent = count(status.listed.users, 'user') + ', ' + count(status.listed.groups, 'group');
    const error = $('sync-error');
    error.textContent = status.error ? status.error.message : '';
    error.hidden = !status.error;
    const now = $('sync-now');
    if (now) now.disabled = !pull.connected;
  }

  function render(live) {
    const state = $('state');
    if (state) {
      state.textContent = live.state_text;
      state.className = 'state state-' + live.state;
      if (lastState && lastState !== live.state) announce(state.textContent);
      lastState = live.state;
    }
    $('count-users').textContent = String(live.users);
    $('count-groups').textContent = String(live.groups);
    $('last-request').replaceChildren(timeEl(live.last_request_at));
    renderTokens(live.tokens);
    renderRecent(live.recent);
    renderSync(live.pull, live.sync_text);
  }

  async function refresh() {
    if (stopped) return;
    const res = await fetch(statusUrl, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
    if (res.status === 404 || res.status === 410) return linkGone();
    if (!res.ok) return;
    const answer = await res.json();
    render(answer.data);
  }

  function schedule() {
    if (stopped) return;
    setTimeout(
      () =>
        refresh()
          .catch(() => undefined)
          .finally(schedule),
      document.hidden ? HIDDEN_POLL_MS : POLL_MS,
    );
  }

  // Back from a consent page: the notice is on the page; a reload should not show it again.
  if (location.search) history.replaceState(null, '', location.pathname);
  localizeTimes(document);
  schedule();
})();
