import { systemConfig } from './system-config';

// `npm start`: SQLite, one cloud process, the demo sites.
export default systemConfig({ name: 'npm-start', command: 'npm start', port: 8280, bridgeStatusPort: 8790 });
