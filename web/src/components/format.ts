import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTime } from 'luxon';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_LOCALE } from '@deposito/protocol/booking/note';
import { formatEuros } from '@deposito/protocol/pricing/money';

/** The BCP 47 locale for an interface language ("jp" is our file name for Japanese). */
export function displayLocale(language: string | undefined): string {
  return LANGUAGE_LOCALE[isLanguage(language) ? language : DEFAULT_LANGUAGE];
}

export interface Formatters {
  locale: string;
  money: (cents: number) => string;
  /** An instant shown in the location's zone. */
  dateTime: (iso: string, zone: string) => string;
  time: (iso: string, zone: string) => string;
  /** The day of an instant in the location's zone. */
  day: (iso: string, zone: string) => string;
  /** A calendar day `yyyy-MM-dd`. */
  date: (isoDate: string) => string;
}

/** A day as the pages show it: "Wed, 1 Jul 2026" in the interface's language. */
const DAY = { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' } as const;

/** Display-only formatting in the current interface language. */
export function useFormatters(): Formatters {
  const { i18n } = useTranslation();
  const locale = displayLocale(i18n.resolvedLanguage ?? i18n.language);
  return useMemo((): Formatters => {
    /** An instant in the location's zone, in the interface's language. */
    const inZone = (iso: string, zone: string) => DateTime.fromISO(iso, { zone }).setLocale(locale);
    return {
      locale,
      money: (cents) => formatEuros(cents, locale),
      dateTime: (iso, zone) =>
        inZone(iso, zone).toLocaleString({ ...DAY, hour: '2-digit', minute: '2-digit' }),
      time: (iso, zone) => inZone(iso, zone).toLocaleString(DateTime.TIME_24_SIMPLE),
      day: (iso, zone) => inZone(iso, zone).toLocaleString(DAY),
      date: (isoDate) => DateTime.fromISO(isoDate).setLocale(locale).toLocaleString(DAY),
    };
  }, [locale]);
}
