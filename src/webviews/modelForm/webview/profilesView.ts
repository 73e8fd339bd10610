/**
 * The Model page's profiles: each saved model with its badges and actions (Activate, Rename in place,
 * Delete), and saving the current settings under a new name; or why this server has none.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { PageModel, ProfileRow } from '../shared/pageModel';
import { format } from '../shared/uiStrings';
import { message, openInBrowser, valueOf } from './fields';
import type { ViewActions, ViewState } from './viewModel';

export function profilesSection(state: ViewState, actions: ViewActions, page: PageModel): TemplateResult {
  const s = state.strings;
  const busy = state.busy !== null;
  if (page.profiles === null)
    return html`<section class="section" aria-labelledby="profiles-heading">
      <h2 id="profiles-heading">${s.profilesHeading}</h2>
      <p id="profiles-not-offered">${s.profilesNotOffered}</p>
      ${page.settingsRoute === 'none' ? nothing : openInBrowser(state, actions, 'profiles-open-in-browser')}
    </section>`;
  return html`<section class="section" aria-labelledby="profiles-heading">
    <h2 id="profiles-heading">${s.profilesHeading}</h2>
    <p class="help">${s.profilesHelp}</p>
    ${page.profiles.length === 0 ? html`<p class="muted" id="profiles-empty">${s.profilesEmpty}</p>` : nothing}
    <ul class="profiles" id="profiles">
      ${page.profiles.map((profile) => profileRow(state, actions, profile, busy))}
    </ul>
    <div class="field profile-save">
      <vscode-label for="profile-name">${s.profileNameLabel}</vscode-label>
      <div class="inline">
        <vscode-textfield
          id="profile-name"
          .value=${live(state.profileName)}
          placeholder="my-profile"
          ?invalid=${state.errorFor('profileName') !== undefined && state.renaming === null}
          @input=${(event: Event) => actions.setProfileName(valueOf(event))}
        ></vscode-textfield>
        <vscode-button id="profile-save" secondary icon="add" ?disabled=${busy} @click=${actions.saveProfile}
          >${s.profileSave}</vscode-button
        >
      </div>
      ${state.renaming === null ? message(state, 'profileName') : nothing}
    </div>
  </section>`;
}

function profileRow(
  state: ViewState,
  actions: ViewActions,
  profile: ProfileRow,
  busy: boolean,
): TemplateResult {
  const s = state.strings;
  const renaming = state.renaming?.name === profile.name ? state.renaming : null;
  return html`<li class="profile ${profile.active ? 'active' : ''}" data-profile=${profile.name}>
    <div class="profile-text">
      <span class="profile-name">${profile.name}</span>
      ${profile.active ? html`<span class="badge">${s.profileActive}</span>` : nothing}
      <span class="muted profile-model">${profile.model ?? s.profileNoModel}</span>
      ${profile.apiKeySet ? html`<span class="muted">· ${s.profileKeySet}</span>` : nothing}
    </div>
    ${
      renaming
        ? html`<div class="inline">
              <vscode-textfield
                class="rename-field"
                aria-label=${format(s.profileRenameTo, profile.name)}
                .value=${live(renaming.value)}
                @input=${(event: Event) => actions.editRename(valueOf(event))}
              ></vscode-textfield>
              <vscode-button class="rename-confirm" ?disabled=${busy} @click=${actions.confirmRename}
                >${s.profileRenameConfirm}</vscode-button
              >
              <vscode-button class="rename-cancel" secondary @click=${actions.cancelRename}
                >${s.profileCancel}</vscode-button
              >
            </div>
            ${message(state, 'profileName')}`
        : html`<div class="profile-actions">
            ${
              profile.active
                ? nothing
                : html`<vscode-button
                    class="profile-activate"
                    secondary
                    aria-label=${format(s.profileActivateLabel, profile.name)}
                    ?disabled=${busy}
                    @click=${() => actions.profile('activate', profile.name)}
                    >${s.profileActivate}</vscode-button
                  >`
            }
            <vscode-button
              class="profile-rename"
              secondary
              aria-label=${format(s.profileRenameLabel, profile.name)}
              ?disabled=${busy}
              @click=${() => actions.startRename(profile.name)}
              >${s.profileRename}</vscode-button
            >
            <vscode-button
              class="profile-delete"
              secondary
              aria-label=${format(s.profileDeleteLabel, profile.name)}
              ?disabled=${busy}
              @click=${() => actions.profile('delete', profile.name)}
              >${s.profileDelete}</vscode-button
            >
          </div>`
    }
  </li>`;
}
