import type { RouteArea } from '../../app-context';
import { sendJson } from '../../json-answer';

/** `GET /healthz`: 200 while the store answers, 503 otherwise (for load balancers and the start script). */
export const healthArea: RouteArea = {
  name: 'health',
  routes(router, { store, logger }) {
    router.get('/healthz', async (_req, res) => {
      try {
        await store.ping();
        sendJson(res, 200, { status: 'ok' });
      } catch (error) {
        logger.error({ err: error }, 'health check: store does not answer');
        sendJson(res, 503, { status: 'unavailable' });
      }
    });
  },
};
