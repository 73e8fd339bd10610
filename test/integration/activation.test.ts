import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID } from './env';
import { openHandsExtension } from './manifest';

describe('activation', () => {
  it(`finds ${EXTENSION_ID}`, () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not among the loaded extensions`);
  });

  it('activates without throwing', async () => {
    const extension = openHandsExtension();
    await extension.activate();
    assert.equal(extension.isActive, true);
  });
});
