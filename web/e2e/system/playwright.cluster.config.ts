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
    DATABASE_URL: `${(process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : 'postgres://postgres@127.0.0.1:5432/test').replace(/\/[^/]*$/, '')}/deposito_e2e_cluster`,
    CLUSTER_FRESH: '1',
  },
});
