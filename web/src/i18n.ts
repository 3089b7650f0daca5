import i18next, { type i18n as I18n, type Resource } from 'i18next';
import HttpBackend from 'i18next-http-backend';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import {
  DEFAULT_LANGUAGE,
  LANGUAGE_TAG,
  LANGUAGES,
  isLanguage,
  languageOfTag,
} from '@deposito/protocol/booking/note';

export { DEFAULT_LANGUAGE };
export const NAMESPACE = 'common';

/** Browsers say "ja" for Japanese; our files (and the old product's links) use "jp". */
export function toSupportedLanguage(detected: string): string {
  return languageOfTag(detected) ?? DEFAULT_LANGUAGE;
}

const sharedOptions = {
  supportedLngs: [...LANGUAGES],
  fallbackLng: DEFAULT_LANGUAGE,
  ns: [NAMESPACE],
  defaultNS: NAMESPACE,
  load: 'languageOnly' as const,
  interpolation: { escapeValue: false },
  returnNull: false,
  react: { useSuspense: false },
};

/**
 * The browser instance: translations over HTTP, language from the visitor's context.
 *
 * Every language file holds exactly the Italian keys (i18n.node.test.ts), so Italian is never read
 * as a fallback for a key, and it is not loaded beside the visitor's language: a request and a parse
 * fewer before the first screen for everyone who does not read Italian. A language whose file does
 * not load (after its retries) gives way to Italian rather than show bare keys.
 */
export async function initBrowserI18n(): Promise<I18n> {
  await i18next
    .use(HttpBackend)
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      ...sharedOptions,
      fallbackLng: false,
      backend: { loadPath: '/locales/{{lng}}/{{ns}}.json' },
      // A failed translation load is retried up to 5 times, starting at 350 ms.
      maxRetries: 5,
      retryTimeout: 350,
      detection: {
        order: ['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag'],
        lookupQuerystring: 'lng',
        lookupCookie: 'i18next',
        lookupLocalStorage: 'i18nextLng',
        lookupSessionStorage: 'i18nextLng',
        caches: ['localStorage'],
        convertDetectedLanguage: toSupportedLanguage,
      },
    });
  const unreadable = (lng: string) => {
    const code = languageOfTag(lng) ?? lng;
    return code !== DEFAULT_LANGUAGE && !i18next.hasResourceBundle(code, NAMESPACE);
  };
  if (unreadable(i18next.language)) await i18next.changeLanguage(DEFAULT_LANGUAGE);
  syncDocumentLanguage(i18next);
  i18next.on('languageChanged', (lng: string) => {
    // The change to Italian that follows says the document's language in its turn.
    if (unreadable(lng)) void i18next.changeLanguage(DEFAULT_LANGUAGE);
    else syncDocumentLanguage(i18next);
  });
  return i18next;
}

/** An instance with translations given in memory (tests, and any pre-rendered use). */
export async function createMemoryI18n(resources: Resource, lng: string = DEFAULT_LANGUAGE): Promise<I18n> {
  const instance = i18next.createInstance();
  await instance.use(initReactI18next).init({ ...sharedOptions, lng, resources });
  return instance;
}

function syncDocumentLanguage(instance: I18n): void {
  // "jp" is our file name; the document's language tag must be the real BCP 47 one.
  const lng = instance.resolvedLanguage ?? DEFAULT_LANGUAGE;
  document.documentElement.lang = isLanguage(lng) ? LANGUAGE_TAG[lng] : lng;
  // What a search result shows under the title, in the page's language.
  if (instance.exists('home.description')) {
    document
      .querySelector('meta[name="description"]')
      ?.setAttribute('content', instance.t('home.description'));
  }
}
