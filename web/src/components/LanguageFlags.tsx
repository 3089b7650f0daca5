import { useTranslation } from 'react-i18next';
import { isLanguage, LANGUAGE_TAG, LANGUAGES } from '@deposito/protocol/booking/note';
import { Flag } from './Flag';

/** Language switch; `languages` narrows the choice (the home screen offers Italian and English). */
export function LanguageFlags({
  languages = LANGUAGES,
  showLabels = false,
}: {
  languages?: readonly string[];
  showLabels?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const current = i18n.resolvedLanguage ?? i18n.language;
  return (
    <nav className="language-flags" aria-label={t('language.choose')}>
      {languages.map((language) => (
        <button
          key={language}
          type="button"
          className="flag-button"
          aria-pressed={current === language}
          aria-label={showLabels ? undefined : t(`language.name.${language}`)}
          lang={isLanguage(language) ? LANGUAGE_TAG[language] : language}
          onClick={() => void i18n.changeLanguage(language)}
        >
          <Flag language={language} />
          {showLabels && <span>{t(`language.name.${language}`)}</span>}
        </button>
      ))}
    </nav>
  );
}
