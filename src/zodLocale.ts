/**
 * `zod/mini` registers no locale, so without one every issue message is a bare "Invalid input".
 * Classic zod registered English on first use unless a locale was already configured; this does the
 * same, once, for every module that builds schemas (they import it for this effect). The setting is
 * zod's global one, shared with anything else in the process, so an existing choice is kept.
 * `en` is imported by name: `z.locales.en` would bundle every locale.
 */
import { en } from 'zod/locales';
import * as z from 'zod/mini';

if (!z.config().localeError) z.config(en());
