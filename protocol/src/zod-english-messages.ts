// The contracts a site box loads (bridge/, controller/, the bridge's config) are written with
// zod/mini: a tenth of classic zod's code, which the daemon would otherwise keep in memory all day
// (issue 21). zod/mini installs no messages (every issue would read "Invalid input"); classic zod
// installs English with its first schema. Both share one configuration, so installing the same
// English here keeps every message as it was, in the cloud too, which loads both flavours.
import { en } from 'zod/locales';
import { config } from 'zod/mini';

/** Installs zod's English messages unless a locale is already set; call before the first parse. */
export function useEnglishZodMessages(): void {
  if (!config().localeError) config(en());
}
