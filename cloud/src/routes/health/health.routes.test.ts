import { describe, expect, it } from 'vitest';
import { apiClient, startTestApp } from '../../../test/test-app';

describe('GET /healthz', () => {
  it('answers 200 while the store answers and 503 once it does not', async () => {
    const test = await startTestApp({ seed: false });
    const api = apiClient(test.url);
    const health = async () => {
      const { status, body } = await api.get('/healthz');
      return { status, body };
    };
    try {
      expect(await health()).toEqual({ status: 200, body: { status: 'ok' } });
      await test.store.close();
      expect(await health()).toEqual({ status: 503, body: { status: 'unavailable' } });
    } finally {
      await test.cloud.stop();
      await test.database.dispose();
    }
  });
});
