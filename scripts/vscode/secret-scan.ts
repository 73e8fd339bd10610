// After the e2e run: every secret value the run used must be found nowhere but in Secret Storage.
//
// Where code-server keeps things: the server's user-data dir holds settings, logs (output channels,
// extension host), workspace/global storage folders and `serve-web-key-half` (the server's half of
// the key that encrypts Secret Storage). The workbench runs in the browser, so its state databases
// (IndexedDB: global and workspace state, webview state, user data) and Secret Storage itself
// (localStorage `secrets.provider`, sealed with AES-GCM) live there. Both are scanned; only the
// `secrets.provider` entry is left out.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';

/** The localStorage entry VS Code's web Secret Storage (LocalStorageSecretStorageProvider) uses. */
export const SECRET_STORAGE_ENTRY = 'secrets.provider';

export interface SecretHit {
  file: string;
  /** The first characters of the secret only, so the report does not leak it either. */
  secret: string;
  encoding: 'utf8' | 'utf16le';
}

export interface ScanReport {
  filesScanned: number;
  hits: SecretHit[];
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Looks for each secret as UTF-8 and UTF-16LE bytes (JSON, logs, SQLite and LevelDB text) in every file. */
export function scanForSecrets(dirs: string[], secrets: readonly string[]): ScanReport {
  const needles = secrets
    .filter((secret) => secret.length >= 6)
    .flatMap((secret) => [
      { secret, encoding: 'utf8' as const, bytes: Buffer.from(secret, 'utf8') },
      { secret, encoding: 'utf16le' as const, bytes: Buffer.from(secret, 'utf16le') },
    ]);
  const report: ScanReport = { filesScanned: 0, hits: [] };
  for (const file of dirs.flatMap(filesUnder)) {
    let content: Buffer;
    try {
      content = fs.readFileSync(file);
    } catch {
      continue; // a socket or a file removed meanwhile
    }
    report.filesScanned++;
    for (const needle of needles) {
      if (content.includes(needle.bytes)) {
        report.hits.push({ file, secret: `${needle.secret.slice(0, 4)}…`, encoding: needle.encoding });
      }
    }
  }
  return report;
}

interface BrowserStorageDump {
  localStorage: Record<string, string>;
  sessionStorage: Record<string, string>;
  indexedDB: Record<string, Record<string, { key: string; value: string }[]>>;
}

// A string, not a function: tsx would add helpers to a function that do not exist in the page.
const DUMP_STORAGE_SCRIPT = `(async () => {
  const asText = (value) => {
    if (value instanceof Uint8Array) return new TextDecoder().decode(value);
    if (value instanceof ArrayBuffer) return new TextDecoder().decode(new Uint8Array(value));
    if (typeof value === 'string') return value;
    try { return JSON.stringify(value); } catch { return String(value); }
  };
  const fromStorage = (storage) =>
    Object.fromEntries(Object.keys(storage).map((key) => [key, storage.getItem(key) ?? '']));
  const request = (req) => new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const databases = {};
  for (const info of await indexedDB.databases()) {
    if (!info.name) continue;
    const db = await request(indexedDB.open(info.name));
    const stores = {};
    for (const storeName of Array.from(db.objectStoreNames)) {
      const store = db.transaction(storeName, 'readonly').objectStore(storeName);
      const [keys, values] = await Promise.all([request(store.getAllKeys()), request(store.getAll())]);
      stores[storeName] = keys.map((key, index) => ({ key: asText(key), value: asText(values[index]) }));
    }
    db.close();
    databases[info.name] = stores;
  }
  return { localStorage: fromStorage(localStorage), sessionStorage: fromStorage(sessionStorage), indexedDB: databases };
})()`;

/**
 * Writes the workbench page's storage (localStorage, sessionStorage, every IndexedDB database and
 * object store, values decoded to text) into `dir`, one file per database, leaving out only the
 * Secret Storage entry. Returns how many entries were written and whether Secret Storage was seen.
 */
export async function dumpBrowserStorage(
  page: Page,
  dir: string,
): Promise<{ entries: number; secretStorageSeen: boolean }> {
  const dump = (await page.evaluate(DUMP_STORAGE_SCRIPT)) as BrowserStorageDump;
  const secretStorageSeen = SECRET_STORAGE_ENTRY in dump.localStorage;
  delete dump.localStorage[SECRET_STORAGE_ENTRY];
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const write = (name: string, content: unknown) =>
    fs.writeFileSync(
      path.join(dir, `${name.replace(/[^\w.-]+/g, '_')}.json`),
      JSON.stringify(content, null, 1),
    );
  write('localStorage', dump.localStorage);
  write('sessionStorage', dump.sessionStorage);
  let entries = Object.keys(dump.localStorage).length + Object.keys(dump.sessionStorage).length;
  for (const [name, stores] of Object.entries(dump.indexedDB)) {
    write(`indexedDB-${name}`, stores);
    entries += Object.values(stores).reduce((sum, rows) => sum + rows.length, 0);
  }
  return { entries, secretStorageSeen };
}
