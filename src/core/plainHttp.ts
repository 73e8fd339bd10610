import * as vscode from 'vscode';
import type { MementoManager } from './mementoManager';

/**
 * True for an http:// server on another machine: an API key sent there crosses the network
 * unencrypted. Loopback (localhost, 127.0.0.0/8, ::1) never leaves this machine.
 */
export function isPlainHttpToAnotherHost(serverUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(serverUrl);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const loopback =
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    host === '::1';
  return !loopback;
}

/**
 * The http:// servers on other machines the user agreed to send the API key to, asked once per URL.
 * Kept in globalState (`MementoManager`): server URLs only.
 */
export class PlainHttpConsent {
  /** Asked in this session already (answered or dismissed): not asked again until Set API Key. */
  private readonly asked = new Set<string>();

  constructor(private readonly mementos: MementoManager) {}

  allows(serverUrl: string): boolean {
    return this.allowed().includes(normalize(serverUrl));
  }

  async allow(serverUrl: string): Promise<void> {
    if (!this.allows(serverUrl))
      await this.mementos.setPlainHttpAllowed([...this.allowed(), normalize(serverUrl)]);
  }

  async revoke(serverUrl: string): Promise<void> {
    const url = normalize(serverUrl);
    await this.mementos.setPlainHttpAllowed(this.allowed().filter((allowed) => allowed !== url));
  }

  /**
   * Asks whether to send the key to this server over plain http://; records a yes. Without `modal`
   * (the key is already stored) it asks at most once per URL and session and does not wait.
   */
  async ask(serverUrl: string, options: { modal: boolean }): Promise<boolean> {
    const url = normalize(serverUrl);
    if (!options.modal) {
      if (this.asked.has(url)) return false;
      this.asked.add(url);
    }
    const send = vscode.l10n.t('Send over HTTP');
    const question = vscode.l10n.t('Send your OpenHands API key to {0} unencrypted?', serverUrl);
    const why = vscode.l10n.t(
      'The server URL starts with http:// and is not this machine, so anyone on the network between you and the server can read the key. Use https:// if the server offers it.',
    );
    // a notification has no detail line: the reason goes into its message
    const choice = options.modal
      ? await vscode.window.showWarningMessage(question, { modal: true, detail: why }, send)
      : await vscode.window.showWarningMessage(`${question} ${why}`, send, vscode.l10n.t('Not Now'));
    if (choice !== send) return false;
    this.asked.delete(url);
    await this.allow(serverUrl);
    return true;
  }

  private allowed(): string[] {
    return this.mementos.plainHttpAllowed();
  }
}

function normalize(serverUrl: string): string {
  return serverUrl.replace(/\/+$/, '').toLowerCase();
}
