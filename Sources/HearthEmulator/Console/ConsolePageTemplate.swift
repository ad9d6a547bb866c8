extension ConsolePage {
    /// `{{TOKEN}}` and `{{PROJECT}}` are filled in per answer (`ConsolePage.response`).
    static let template = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="hearth-console-token" content="{{TOKEN}}">
<meta name="hearth-default-project" content="{{PROJECT}}">
<title>hearth-emulator</title>
<link rel="icon" href="assets/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="assets/console.css">
<link rel="modulepreload" href="assets/dom.js">
<link rel="modulepreload" href="assets/api.js">
<link rel="modulepreload" href="assets/accounts.js">
<link rel="modulepreload" href="assets/user.js">
<link rel="modulepreload" href="assets/feed.js">
<link rel="modulepreload" href="assets/codes.js">
<link rel="modulepreload" href="assets/settings.js">
<link rel="modulepreload" href="assets/tenants.js">
<link rel="modulepreload" href="assets/transfer.js">
<script type="module" src="assets/app.js"></script>
</head>
<body>
<header class="bar">
  <a class="brand" href="#/accounts"><img src="assets/icon.svg" alt="" width="22" height="22"> hearth-emulator <span class="sub">console</span></a>
  <form id="scope-form" class="scope">
    <label>Project <input id="project-input" name="project" autocomplete="off" spellcheck="false" size="16"></label>
    <label id="tenant-picker" hidden>Tenant <select id="tenant-select"></select></label>
    <span id="scope-note" class="scope-note"></span>
  </form>
  <span id="connection" class="connection">connecting</span>
</header>
<nav id="tabs" class="tabs" aria-label="Sections">
  <a href="#/accounts" data-tab="accounts">Accounts</a>
  <a href="#/codes" data-tab="codes">Codes &amp; links <span id="codes-badge" class="count-badge" hidden></span></a>
  <a href="#/settings" data-tab="settings">Settings</a>
  <a href="#/tenants" data-tab="tenants" id="tab-tenants">Tenants</a>
  <a href="#/data" data-tab="data">Import / export</a>
</nav>
<main id="view" tabindex="-1"></main>
<div id="toast" class="toast" role="status" aria-live="polite"></div>
<noscript><p class="error">The console needs JavaScript.</p></noscript>
</body>
</html>
"""#
}
