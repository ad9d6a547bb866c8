// Export and import. JavaScript modules of the console page, served from
// /emulator/ui/assets/ (`ConsoleAssets`).
extension ConsoleScripts {
    static let transfer = #"""
// Export and import in the Firebase emulator's format. Export downloads a zip of the directory
// `firebase emulators:export` writes; import takes that zip (stored or deflated), the folder
// itself, or its files, and replaces the project's accounts and settings with the export's.

import { h, replace, toast, errorBox } from './dom.js';
import { consoleApi, scope } from './api.js';

const METADATA = 'firebase-export-metadata.json';

export function transferView(main) {
  const exportStatus = h('div', { class: 'form-status', id: 'export-status' });
  const importStatus = h('div', { class: 'form-status', id: 'import-status' });
  const preview = h('div', { id: 'import-preview' });
  const files = h('input', { type: 'file', id: 'import-files', multiple: true, accept: '.zip,.json,application/zip,application/json' });
  const folder = h('input', { type: 'file', id: 'import-folder', webkitdirectory: true, multiple: true });
  let chosen = null;

  const choose = async (list) => {
    replace(importStatus);
    replace(preview);
    chosen = null;
    try {
      chosen = await readExport([...list]);
    } catch (error) {
      replace(importStatus, errorBox(error));
      return;
    }
    const accounts = chosen.accounts === null ? 'no accounts file' : `${chosen.accounts.toLocaleString('en-US')} account${chosen.accounts === 1 ? '' : 's'}`;
    replace(preview, h('div', { class: 'panel inset' },
      h('p', {}, `Export found: ${accounts}${chosen.hasSettings ? ' and settings' : ''}.`),
      h('ul', { class: 'files' }, Object.keys(chosen.files).sort().map((path) => h('li', { class: 'mono' }, path))),
      h('p', {}, `Importing replaces every account of ${scope.project}` + (chosen.hasSettings ? ' and its settings.' : '.')),
      h('button', { type: 'button', class: 'danger', id: 'import-confirm', onclick: async (event) => {
        const button = event.currentTarget;
        button.disabled = true;
        try {
          const result = await consoleApi('/import', { method: 'POST', body: { files: chosen.files } }, '');
          const tenants = result.tenants ?? [];
          const text = `Imported ${result.accounts.toLocaleString('en-US')} account${result.accounts === 1 ? '' : 's'}` +
            `${result.settings ? ' and the settings' : ''} into ${scope.project}` +
            (tenants.length ? `, and the accounts of tenant${tenants.length === 1 ? '' : 's'} ${tenants.join(', ')}.` : '.');
          replace(preview);
          replace(importStatus, h('p', { class: 'ok', id: 'import-result' }, text),
            result.notes.length ? h('ul', {}, result.notes.map((note) => h('li', { class: 'muted' }, note))) : null);
          toast(text);
        } catch (error) {
          replace(importStatus, errorBox(error));
          button.disabled = false;
        }
      } }, 'Replace with this export')));
  };
  files.addEventListener('change', () => choose(files.files));
  folder.addEventListener('change', () => choose(folder.files));

  replace(main,
    h('div', { class: 'toolbar' }, h('h2', {}, 'Import / export'),
      h('p', { class: 'muted' }, `In the Firebase emulator's format: the directory firebase emulators:export and hearth-emulator --export-on-exit write, for ${scope.project}.`)),
    h('section', { class: 'panel' },
      h('h3', {}, 'Export'),
      h('p', {}, 'A zip of firebase-export-metadata.json and auth_export/ (accounts.json, config.json); unzipped, it is a directory for ',
        h('code', {}, '--import'), '.'),
      h('button', { type: 'button', class: 'primary', id: 'export-download', onclick: async (event) => {
        const button = event.currentTarget;
        button.disabled = true;
        replace(exportStatus);
        try {
          const response = await consoleApi('/export', { raw: true }, '');
          const blob = await response.blob();
          const name = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? 'hearth-emulator-export.zip';
          const url = URL.createObjectURL(blob);
          const link = h('a', { href: url, download: name, hidden: true });
          document.body.append(link);
          link.click();
          link.remove();
          setTimeout(() => URL.revokeObjectURL(url), 60000);
          replace(exportStatus, h('p', { class: 'ok', id: 'export-result' }, `Downloaded ${name} (${blob.size.toLocaleString('en-US')} bytes).`));
        } catch (error) {
          replace(exportStatus, errorBox(error));
        } finally {
          button.disabled = false;
        }
      } }, 'Download export (.zip)'),
      exportStatus),
    h('section', { class: 'panel' },
      h('h3', {}, 'Import'),
      h('p', {}, 'Choose an export: its zip, the folder, or its files (firebase-export-metadata.json, accounts.json, config.json).'),
      h('div', { class: 'inline' },
        h('label', { class: 'file' }, 'Zip or files ', files),
        h('label', { class: 'file' }, 'Folder ', folder)),
      preview,
      importStatus));
  return {};
}

// The export inside the chosen files: {files: {path in the export: text}, accounts, hasSettings}.
async function readExport(list) {
  if (list.length === 0) throw new Error('No file chosen.');
  const entries = [];
  for (const file of list) {
    const path = file.webkitRelativePath || file.name;
    if (/\.zip$/i.test(file.name)) {
      for (const entry of await unzip(file)) entries.push(entry);
    } else {
      entries.push({ path, read: async () => new Uint8Array(await file.arrayBuffer()) });
    }
  }
  const root = exportRoot(entries);
  const inside = entries.filter((entry) => entry.path.startsWith(root)).map((entry) => ({ ...entry, path: entry.path.slice(root.length) }));
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const text = async (entry) => {
    try {
      return decoder.decode(await entry.read());
    } catch (error) {
      throw new Error(`${entry.path}: ${error instanceof TypeError ? 'not UTF-8 text' : error.message}`);
    }
  };
  const files = {};
  let authDirectory = inside.some((entry) => entry.path.startsWith('auth_export/')) ? 'auth_export/' : '';
  const metadata = inside.find((entry) => entry.path === METADATA);
  if (metadata) {
    files[METADATA] = await text(metadata);
    try {
      const path = JSON.parse(files[METADATA])?.auth?.path;
      if (typeof path === 'string' && path) authDirectory = `${path.replace(/\/+$/, '')}/`;
    } catch {
      // the emulator reports what is wrong with the file
    }
  }
  for (const entry of inside) {
    if (entry.path.startsWith(authDirectory) && !entry.path.slice(authDirectory.length).includes('/') && entry.path.endsWith('.json')) {
      files[entry.path] = await text(entry);
    }
  }
  let accounts = null;
  const accountsText = files[`${authDirectory}accounts.json`];
  if (accountsText !== undefined) {
    try {
      accounts = JSON.parse(accountsText)?.users?.length ?? 0;
    } catch {
      accounts = 0;
    }
  }
  return { files, accounts, hasSettings: `${authDirectory}config.json` in files };
}

// Where the export directory starts among the chosen paths: the folder of the shallowest
// firebase-export-metadata.json, else the one holding auth_export/, else the one holding accounts.json.
function exportRoot(entries) {
  const depth = (entry) => entry.path.split('/').length;
  const sorted = [...entries].sort((a, b) => depth(a) - depth(b));
  const folderOf = (path) => path.slice(0, path.lastIndexOf('/') + 1);
  const metadata = sorted.find((entry) => entry.path.split('/').pop() === METADATA);
  if (metadata) return folderOf(metadata.path);
  const auth = sorted.find((entry) => /(^|\/)auth_export\/(accounts|config)\.json$/.test(entry.path));
  if (auth) return folderOf(auth.path).replace(/auth_export\/$/, '');
  const plain = sorted.find((entry) => /(^|\/)(accounts|config)\.json$/.test(entry.path));
  if (plain) return folderOf(plain.path);
  throw new Error(`No export found: choose the folder (or a zip of it) holding ${METADATA} or auth_export/accounts.json, or those files.`);
}

// The files of a zip archive (stored or deflated; no ZIP64, no encryption).
async function unzip(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65535); at -= 1) {
    if (view.getUint32(at, true) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new Error(`${file.name} is not a zip archive.`);
  const count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  const names = new TextDecoder();
  const entries = [];
  for (let index = 0; index < count; index += 1) {
    if (offset + 46 > bytes.length || view.getUint32(offset, true) !== 0x02014b50) throw new Error(`${file.name} is damaged.`);
    const flags = view.getUint16(offset + 8, true);
    const method = view.getUint16(offset + 10, true);
    const size = view.getUint32(offset + 20, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const local = view.getUint32(offset + 42, true);
    const path = names.decode(bytes.subarray(offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
    if (path.endsWith('/')) continue;
    if (flags & 1) throw new Error(`${file.name}: ${path} is encrypted.`);
    if (local + 30 > bytes.length || view.getUint32(local, true) !== 0x04034b50) throw new Error(`${file.name} is damaged.`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = bytes.subarray(start, start + size);
    entries.push({ path, read: () => inflate(method, data, path) });
  }
  return entries;
}

async function inflate(method, data, path) {
  if (method === 0) return data;
  if (method === 8) {
    const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }
  throw new Error(`${path}: compression method ${method} is not supported (stored and deflated are).`);
}
"""#
}
