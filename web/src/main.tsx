import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { initBrowserI18n } from './i18n';
import { App } from './App';
import { startHostViewportListening } from './embed/host-viewport';
import { startResizeReporting } from './embed/resize-reporter';
import './styles/global.css';

const root = createRoot(document.getElementById('root') as HTMLElement);

void initBrowserI18n().then((i18n) => {
  root.render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <App />
      </I18nextProvider>
    </StrictMode>,
  );
  startResizeReporting();
  startHostViewportListening();
});
