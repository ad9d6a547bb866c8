/// The console page's style sheet (/emulator/ui/assets/console.css): system fonts only, nothing
/// fetched from elsewhere.
enum ConsoleStyle {
    static let css = #"""
:root {
  --ink: #1f2328;
  --muted: #636c76;
  --line: #d8dee4;
  --paper: #ffffff;
  --wash: #f6f8fa;
  --bar: #2b2118;
  --accent: #d9661c;
  --accent-ink: #ffffff;
  --ok: #1a7f37;
  --bad: #cf222e;
  --fresh: #fff4d6;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: var(--ink);
  background: var(--wash);
}
* { box-sizing: border-box; }
body { margin: 0; }
a { color: #0b5cad; }
code, .mono, input[type="tel"], textarea { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
h2 { font-size: 20px; margin: 0; }
h3 { font-size: 15px; margin: 0 0 10px; }
h4 { font-size: 13px; margin: 14px 0 6px; }

.bar { display: flex; align-items: center; gap: 18px; padding: 8px 20px; background: var(--bar); color: #f3e9df; }
.brand { display: flex; align-items: center; gap: 8px; color: inherit; text-decoration: none; font-weight: 600; font-size: 15px; }
.brand .sub { font-weight: 400; opacity: .7; }
.scope { display: flex; align-items: center; gap: 14px; margin: 0; }
.scope label { display: flex; align-items: center; gap: 6px; font-size: 13px; opacity: .95; }
.scope input, .scope select { background: #3b2f25; color: #fff; border: 1px solid #5a4a3c; border-radius: 5px; padding: 3px 7px; }
.scope-note { font-size: 12px; background: var(--accent); color: var(--accent-ink); border-radius: 10px; padding: 1px 8px; }
.scope-note:empty { display: none; }
.connection { margin-left: auto; font-size: 12px; opacity: .85; }
.connection::before { content: "●"; margin-right: 5px; color: #999; }
.connection.up::before { color: #3fb950; }
.connection.down::before { color: #f85149; }

.tabs { display: flex; gap: 2px; padding: 0 20px; background: var(--paper); border-bottom: 1px solid var(--line); }
.tabs a { padding: 10px 14px; color: var(--muted); text-decoration: none; border-bottom: 2px solid transparent; }
.tabs a:hover { color: var(--ink); }
.tabs a.active { color: var(--ink); border-bottom-color: var(--accent); font-weight: 600; }
.count-badge { display: inline-block; min-width: 18px; padding: 0 5px; margin-left: 4px; border-radius: 9px; background: var(--accent); color: var(--accent-ink); font-size: 11px; text-align: center; }

main { padding: 18px 20px 40px; max-width: 1280px; outline: none; }
.toolbar { display: flex; align-items: center; gap: 12px; flex-wrap: wrap; margin-bottom: 12px; }
.toolbar .muted { margin: 0; }
#account-search { flex: 1 1 320px; max-width: 460px; }
.panel { background: var(--paper); border: 1px solid var(--line); border-radius: 8px; padding: 14px 16px; margin-bottom: 14px; }
.panel.inset { background: var(--wash); }
.columns { display: grid; grid-template-columns: repeat(auto-fit, minmax(340px, 1fr)); gap: 14px; }
.columns .panel { margin-bottom: 0; }
.columns + .panel { margin-top: 14px; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); gap: 10px 16px; }

input, select, textarea, button, .button { font: inherit; }
input[type="text"], input[type="email"], input[type="tel"], input[type="number"], input[type="search"], select, textarea {
  padding: 5px 8px; border: 1px solid var(--line); border-radius: 6px; background: var(--paper); color: var(--ink);
}
textarea { width: 100%; resize: vertical; }
input[type="number"] { width: 110px; }
button, .button {
  display: inline-block; padding: 5px 12px; border: 1px solid var(--line); border-radius: 6px; background: var(--wash);
  color: var(--ink); cursor: pointer; text-decoration: none; line-height: 1.4;
}
button:hover, .button:hover { border-color: #aeb6bf; }
button:disabled { opacity: .5; cursor: default; }
button.primary { background: var(--accent); border-color: var(--accent); color: var(--accent-ink); }
button.danger { color: var(--bad); }
button.copy, .button.open-link { padding: 1px 8px; font-size: 12px; }
button.copy.done { color: var(--ok); border-color: var(--ok); }
.confirm .question { color: var(--bad); font-weight: 600; }
.actions { display: flex; gap: 8px; align-items: center; margin-top: 10px; flex-wrap: wrap; }
.inline { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.field { display: flex; flex-direction: column; gap: 3px; margin-bottom: 10px; }
.field .label { font-weight: 600; font-size: 13px; }
.hint { color: var(--muted); font-size: 12px; font-weight: 400; }
.check { display: block; margin: 6px 0 10px; }
.form-status:empty { display: none; }
.error { color: var(--bad); margin: 8px 0; white-space: pre-wrap; }
.ok { color: var(--ok); margin: 8px 0; }
.muted { color: var(--muted); }
.summary { color: var(--muted); margin: 6px 0 10px; }
.back { margin: 0 0 10px; }

.table-wrap { overflow-x: auto; background: var(--paper); border: 1px solid var(--line); border-radius: 8px; }
table.data { width: 100%; border-collapse: collapse; }
.panel table.data { margin-top: 4px; }
table.data th { text-align: left; font-size: 12px; color: var(--muted); font-weight: 600; padding: 7px 10px; border-bottom: 1px solid var(--line); background: var(--wash); white-space: nowrap; }
table.data td { padding: 6px 10px; border-bottom: 1px solid #eef1f4; vertical-align: middle; }
table.data tr:last-child td { border-bottom: none; }
table.accounts tbody tr { cursor: pointer; }
table.accounts tbody tr:hover { background: #f3f6f9; }
table.accounts td.mono a { max-width: 15em; display: inline-block; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; vertical-align: bottom; }
tr.is-disabled td { color: var(--muted); }
tr.empty td { color: var(--muted); text-align: center; padding: 18px; }
tr.fresh td { background: var(--fresh); }
td.time { white-space: nowrap; font-size: 12.5px; color: var(--muted); }
.chip { display: inline-block; padding: 0 7px; margin: 1px 3px 1px 0; border-radius: 10px; background: #eef1f4; font-size: 12px; }
.chip.mfa { background: #e8defc; }
.badge { display: inline-block; padding: 0 8px; border-radius: 10px; background: #eef1f4; font-size: 12px; }
.badge.on { background: #dafbe1; color: var(--ok); }
.badge.off { background: #ffebe9; color: var(--bad); }
.tick { color: var(--ok); }
code.sms-code { font-size: 15px; letter-spacing: 1px; font-weight: 600; }
.pager { display: flex; gap: 12px; align-items: center; margin-top: 10px; }
.page-size { margin-left: auto; color: var(--muted); }

.user-head { display: flex; align-items: center; gap: 10px; }
.uid-line { color: var(--muted); margin: 4px 0 10px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 5px 16px; margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
ul.files { margin: 4px 0 8px; }
label.file { display: inline-flex; gap: 6px; align-items: center; margin-right: 16px; }

.toast { position: fixed; bottom: 18px; left: 50%; transform: translateX(-50%); padding: 8px 16px; border-radius: 6px;
  background: #24292f; color: #fff; opacity: 0; pointer-events: none; transition: opacity .2s; max-width: 80vw; }
.toast.visible { opacity: .95; }
.toast.error { background: var(--bad); }
.offscreen { position: fixed; left: -1000px; top: 0; }
[hidden] { display: none !important; }
"""#

    static let icon = #"""
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#2b2118"/><path d="M16 5c1 5 7 7 7 14a7 7 0 0 1-14 0c0-4 2-6 4-8 0 3 1 5 3 5-1-4 0-8 0-11z" fill="#f08a24"/><path d="M16 17c2 2 3 3 3 5a3 3 0 0 1-6 0c0-2 2-3 3-5z" fill="#ffd27a"/></svg>
"""#
}
