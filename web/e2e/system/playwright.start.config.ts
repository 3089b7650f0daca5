import { systemConfig, systemPorts } from './system-config';

// `npm start`: SQLite (a fresh file), one cloud process, the demo sites.
export default systemConfig({ name: 'npm-start', command: 'npm start', ports: systemPorts(1) });
