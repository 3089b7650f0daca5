import express from 'express';
import type { RouteArea } from '../../app-context';

/** `GET /healthz`: 200 while the store answers, 503 otherwise (for load balancers and the start script). */
export const healthArea: RouteArea = {
  name: 'health',
  router({ store, logger }) {
    const router = express.Router();
    router.get('/healthz', async (_req, res) => {
      try {
        await store.ping();
        res.json({ status: 'ok' });
      } catch (error) {
        logger.error({ err: error }, 'health check: store does not answer');
        res.status(503).json({ status: 'unavailable' });
      }
    });
    return router;
  },
};
