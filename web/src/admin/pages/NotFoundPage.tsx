import { Link, useLocation } from 'react-router-dom';
import { Card, PageHeader } from '../components/ui';

/** An /admin address no screen answers: said inside the admin, with a way back. */
export function NotFoundPage() {
  const location = useLocation();
  return (
    <>
      <PageHeader title="Pagina non trovata" />
      <Card>
        <p>
          L&apos;indirizzo <code>{location.pathname}</code> non corrisponde a nessuna pagina dell&apos;area
          amministrazione.
        </p>
        <p>
          <Link className="adm-btn adm-btn-primary" to="/admin/dashboard">
            Torna alla Dashboard
          </Link>
        </p>
      </Card>
    </>
  );
}
