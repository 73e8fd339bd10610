/** Whether the agent can use its model, in the words the page shows under the form. */
import { providerOf, type ModelReadiness } from '../../../api';
import { format, type UiStrings } from '../shared/uiStrings';

export function readinessWords(readiness: ModelReadiness, model: string | null, strings: UiStrings): string {
  switch (readiness) {
    case 'ready':
      return format(strings.readyUses, model ?? '');
    case 'no-settings':
      return strings.readyNoSettings;
    case 'no-model':
      return strings.readyNoModel;
    case 'no-key':
      return format(strings.readyNoKey, providerOf(model ?? ''));
    case 'unknown':
      return strings.readyUnknown;
  }
}
