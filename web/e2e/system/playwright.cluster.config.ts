import { systemConfig, systemPorts } from './system-config';

// `npm run cluster`: PostgreSQL, two cloud processes behind the balancer, bridges spread over them.
// The story also sends the operator's open straight to each process (ports after the balancer's).
const ports = systemPorts(3);
process.env.E2E_PROCESS_URLS = `http://localhost:${ports.cloud + 1},http://localhost:${ports.cloud + 2}`;

export default systemConfig({
  name: 'cluster',
  command: 'npm run cluster',
  ports,
  env: {
    // A database of its own on the tests' PostgreSQL server (the cluster script finds the server as the
    // unit tests do: TEST_DATABASE_URL, DATABASE_URL, the embedded one `npm test` started, the local one).
    CLUSTER_TEST_DATABASE: 'deposito_e2e_cluster',
    CLUSTER_FRESH: '1',
  },
});
