// What a connection test found, in the user's words, with the fix in each message.
import * as vscode from 'vscode';
import type { ModelCheck } from '../../state/modelCheck';
import type { ServerTestResult } from '../../state/serverTest';
import { missingModelText } from '../../views/modelOffer';

/** One line for a test that passed: which server, which version, and how the key fared. */
export function foundText(name: string, result: ServerTestResult): string {
  const version =
    'version' in result && result.version
      ? vscode.l10n.t('OpenHands {0}', result.version)
      : vscode.l10n.t('OpenHands');
  const key =
    'keyUsed' in result && result.keyUsed
      ? vscode.l10n.t('API key accepted')
      : vscode.l10n.t('no API key needed');
  return vscode.l10n.t('Connected to {0}: {1}, {2}.', name, version, key);
}

/** The Connected line, and what the model lacks when a conversation would never be answered. */
export function connectedText(name: string, result: ServerTestResult, model: ModelCheck): string {
  const missing = missingModelText(model);
  return missing ? `${foundText(name, result)} ${missing}` : foundText(name, result);
}

/** Why a test failed, and what to do about it; undefined for a test that passed. */
export function problemText(url: string, result: ServerTestResult): string | undefined {
  const error = 'error' in result ? result.error : undefined;
  const reason = error?.message ?? '';
  // a redirect: the address to use is another one (https://, or a path)
  if (error?.status !== undefined && error.status >= 300 && error.status < 400)
    return vscode.l10n.t(
      '{0} redirects elsewhere. Enter the address it leads to (often https://…). ({1})',
      url,
      reason,
    );
  // 403 is more than a wrong key (an unverified e-mail, no access): the server's words say which
  if (result.outcome === 'key-rejected' && error?.status === 403 && error.serverMessage)
    return vscode.l10n.t('{0} refused access: {1}', url, error.serverMessage);
  switch (result.outcome) {
    case 'ok':
      return undefined;
    case 'tls-settings':
      return result.problem;
    case 'needs-key':
      return vscode.l10n.t(
        '{0} needs an API key. Enter the key its administrator gave you, or create one in its web page under Settings → API Keys.',
        url,
      );
    case 'key-rejected':
      return vscode.l10n.t(
        '{0} refused the API key. Check that it was copied whole, or create a new one in its web page under Settings → API Keys.',
        url,
      );
    case 'unreachable':
      return vscode.l10n.t(
        'Nothing answered at {0}. Check the address, and that the server is running and reachable from this machine. ({1})',
        url,
        reason,
      );
    case 'untrusted-certificate':
      return vscode.l10n.t(
        "The certificate of {0} is not trusted on this machine. Choose your company's CA file, or, for a server you run yourself, trust its certificate.",
        url,
      );
    case 'not-openhands':
      return vscode.l10n.t(
        '{0} answered, but not as OpenHands does. Use the address you open OpenHands at in a browser, e.g. http://localhost:3000. ({1})',
        url,
        reason,
      );
    case 'too-old':
      return vscode.l10n.t(
        '{0} runs an OpenHands too old for this extension: it needs OpenHands 1.0 or newer. Update the server, then connect again.',
        url,
      );
    case 'failed':
      return vscode.l10n.t(
        '{0} is OpenHands but answered with an error. Try again in a moment; the OpenHands log has the details. ({1})',
        url,
        reason,
      );
  }
}
