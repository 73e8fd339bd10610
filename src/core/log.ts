import * as vscode from 'vscode';
import type { RequestLogEntry } from '../api';
import type { HttpLogLevel } from './config';

/** One output channel for the extension. Entries come from the API client already redacted. */
export class Log implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  httpLevel: HttpLogLevel = 'requests';

  constructor() {
    this.channel = vscode.window.createOutputChannel('OpenHands', { log: true });
  }

  request(entry: RequestLogEntry): void {
    if (this.httpLevel === 'off') return;
    const retry = entry.attempt > 1 ? ` (attempt ${entry.attempt})` : '';
    const line = `${entry.method} ${entry.path} → ${entry.status ?? entry.errorKind ?? '?'} ${entry.durationMs} ms${retry}`;
    if (entry.errorKind) this.channel.warn(line);
    // a poll that found what the last one found would fill the channel with the same lines every second
    else if (entry.repeated) this.channel.debug(line);
    else this.channel.info(line);
    // the error shows the server's words cleaned and clipped; the log keeps them whole, escaped onto one line
    if (entry.serverText) this.channel.warn(`  the server said: ${JSON.stringify(entry.serverText)}`);
    if (entry.certificate) this.channel.warn(`  its TLS certificate was refused: ${entry.certificate}`);
    if (
      this.httpLevel === 'bodies' &&
      (entry.requestBody !== undefined || entry.responseBody !== undefined)
    ) {
      // info, not debug: the channel's default level hides debug, and the user asked for the bodies
      this.channel.info(JSON.stringify({ request: entry.requestBody, response: entry.responseBody }));
    }
  }

  info(message: string): void {
    this.channel.info(message);
  }

  warn(message: string): void {
    this.channel.warn(message);
  }

  error(message: string): void {
    this.channel.error(message);
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
