// The booking note carries the customer's interface language and how the booking was made, e.g.
// 'lang:en;fasttrack' or 'lang:it;night'. The completion page reads its language from it.

export const LANGUAGES = ['it', 'en', 'es', 'jp'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'it';

export type FastTrackTag = 'fasttrack' | 'fasttrack-fallback';
export const NIGHT_TAG = 'night';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The BCP 47 tag of each interface language: "jp" is our code (files, links), "ja" the language. */
export const LANGUAGE_TAG: Record<Language, string> = { it: 'it', en: 'en', es: 'es', jp: 'ja' };

/** The locale dates and money are written in for each interface language. */
export const LANGUAGE_LOCALE: Record<Language, string> = {
  it: 'it-IT',
  en: 'en-GB',
  es: 'es-ES',
  jp: 'ja-JP',
};

/**
 * The interface language a browser's language tag asks for ("ja-JP" → "jp", " en;q=0.8" → "en"),
 * or null when we have no translations for it.
 */
export function languageOfTag(tag: string): Language | null {
  const base = tag.trim().toLowerCase().split(/[-_;]/)[0] ?? '';
  const language = base === 'ja' ? 'jp' : base;
  return isLanguage(language) ? language : null;
}

/** Builds a note: language first, then the fast-track tag, then the night marker. */
export function buildNote(input: { lang: Language; fastTrack?: FastTrackTag; night?: boolean }): string {
  if (!isLanguage(input.lang)) throw new RangeError(`Unknown language: ${String(input.lang)}`);
  const parts = [`lang:${input.lang}`];
  if (input.fastTrack !== undefined) {
    if (input.fastTrack !== 'fasttrack' && input.fastTrack !== 'fasttrack-fallback') {
      throw new RangeError(`Unknown fast-track tag: ${String(input.fastTrack)}`);
    }
    parts.push(input.fastTrack);
  }
  if (input.night) parts.push(NIGHT_TAG);
  return parts.join(';');
}

export type ParsedNote = {
  /** The note's language, or 'it' when absent or unknown. */
  lang: Language;
  /** Every other non-empty part, lower-cased, in order. */
  tags: string[];
  fastTrack: FastTrackTag | null;
  night: boolean;
};

/** Reads a note written by {@link buildNote}, by the legacy clients or by an admin; never throws. */
export function parseNote(note: string | null | undefined): ParsedNote {
  let lang: Language = DEFAULT_LANGUAGE;
  let langSeen = false;
  const tags: string[] = [];
  for (const raw of typeof note === 'string' ? note.split(';') : []) {
    const part = raw.trim().toLowerCase();
    if (part === '') continue;
    if (part.startsWith('lang:')) {
      const value = part.slice('lang:'.length).trim();
      // Only the first lang: part counts; an unknown value there falls back to the default.
      if (!langSeen && isLanguage(value)) lang = value;
      langSeen = true;
      continue;
    }
    tags.push(part);
  }
  const fastTrack = tags.includes('fasttrack-fallback')
    ? 'fasttrack-fallback'
    : tags.includes('fasttrack')
      ? 'fasttrack'
      : null;
  return { lang, tags, fastTrack, night: tags.includes(NIGHT_TAG) };
}
