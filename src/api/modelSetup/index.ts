/** Setting up the agent's model: the settings, the catalogue, LLM profiles, and whether it is ready. */
export { ModelSetupApi, PROFILE_NAME, type ProfileLlm } from './modelSetupApi';
export {
  catalogueKnows,
  MAX_CATALOGUE_ITEMS,
  modelId,
  verifiedFirst,
  type CatalogueList,
  type CatalogueQuery,
} from './catalogue';
export {
  changedFields,
  type ModelSettings,
  type ModelSettingsChange,
  type ModelSettingsRead,
} from './modelSettings';
export { NOT_OFFERED, routeNotOffered, type Offered } from './offered';
export { KEYLESS_PROVIDERS, modelReadiness, providerOf, type ModelReadiness } from './readiness';
