import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { testServerUrl } from './env';

describe('test environment', () => {
  it('sees openhands.serverUrl from the user settings the driver wrote', () => {
    const configured = vscode.workspace.getConfiguration('openhands').get<string>('serverUrl');
    assert.equal(configured, testServerUrl());
  });

  it('reaches the seeded test server from the extension host', async () => {
    const response = await fetch(new URL('/api/v1/sandboxes/search?limit=5', testServerUrl()));
    assert.equal(response.status, 200);
    const page = (await response.json()) as { items?: unknown[] };
    assert.ok(Array.isArray(page.items) && page.items.length > 0, 'the test server has no seeded sandboxes');
  });
});
