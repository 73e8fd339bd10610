/**
 * The git providers the form edits. `enterprise_sso` is shown only when the server lists it (it can
 * never be validated by the OSS server, so offering it for new tokens would only produce errors).
 * Other providers a (hosted) server reports are not editable here but are always carried along.
 */
export const FORM_PROVIDERS = ['github', 'gitlab', 'bitbucket', 'enterprise_sso'] as const;
export type FormProvider = (typeof FORM_PROVIDERS)[number];

export const ALWAYS_SHOWN_PROVIDERS: readonly FormProvider[] = ['github', 'gitlab', 'bitbucket'];

/** Providers shown in the form: the three common ones, plus `enterprise_sso` when it is known. */
export function shownProviders(known: Iterable<string>): FormProvider[] {
  const extra = new Set(known);
  return FORM_PROVIDERS.filter(
    (provider) => ALWAYS_SHOWN_PROVIDERS.includes(provider) || extra.has(provider),
  );
}
