/** One git provider: where the server stands, the token (write-only) and the optional host. */
import { html, type TemplateResult } from 'lit';
import { fieldPath } from '../shared/fieldPath';
import type { ProviderModel } from '../shared/formSchema';
import { format, type UiStrings } from '../shared/uiStrings';
import type { ProviderEdit } from './editorDraft';
import { secretField, textField } from './fields';
import type { ViewActions, ViewState } from './viewModel';

/** Shown as the host placeholder: what an empty host means. */
const DEFAULT_HOSTS: Record<ProviderEdit['provider'], string> = {
  github: 'github.com',
  gitlab: 'gitlab.com',
  bitbucket: 'bitbucket.org',
  enterprise_sso: '',
};

function providerLabel(s: UiStrings, provider: ProviderEdit['provider']): string {
  return s[`provider_${provider}`];
}

function serverStatus(s: UiStrings, model: ProviderModel | undefined): TemplateResult {
  if (model?.token !== 'set') return html`<span class="badge muted">${s.serverNotSet}</span>`;
  const text = model.host ? format(s.serverSetHost, model.host) : s.serverSet;
  return html`<span class="badge ok"><vscode-icon name="pass"></vscode-icon>${text}</span>`;
}

export function providerView(
  state: ViewState,
  actions: ViewActions,
  provider: ProviderEdit,
  index: number,
): TemplateResult {
  const s = state.strings;
  const label = providerLabel(s, provider.provider);
  const model = state.model?.providers.find((p) => p.provider === provider.provider);
  const tokenPath = fieldPath.providerToken(provider.provider);
  const hostPath = fieldPath.providerHost(provider.provider);
  const hasToken = provider.token.input.state === 'set' || provider.token.input.state === 'replace';
  return html`<div class="card provider" id=${`provider-${provider.provider}`}>
    <div class="card-header">
      <h3>${label}</h3>
      <span class="badges">${serverStatus(s, model)}</span>
    </div>
    <div class="provider-fields">
      ${secretField(state, actions, {
        path: tokenPath,
        label: format(s.tokenLabel, label),
        edit: provider.token,
        set: (draft, edit) => {
          const target = draft.providers[index];
          if (target) target.token = edit;
        },
      })}
      ${textField(state, actions, {
        path: hostPath,
        label: format(s.hostLabel, label),
        value: provider.host,
        placeholder: DEFAULT_HOSTS[provider.provider],
        disabled: !hasToken,
        set: (draft, value) => {
          const target = draft.providers[index];
          if (target) target.host = value;
        },
      })}
    </div>
  </div>`;
}
