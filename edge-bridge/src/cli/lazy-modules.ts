// The heavy parts only some commands need (the daemon with its link and logger, the SQLite buffer, the
// simulator, the WebSocket link, the date library), loaded when such a command runs: `state`, `open` or `--version` on a site box then
// start in a fraction of the memory. The bundle keeps them in one file; esbuild runs a module's code
// on its first import().
export const loadDaemon = () => import('../daemon');
export const loadBuffer = () => import('../buffer/bridge-buffer');
export const loadSimulator = () => import('../controller/controller-simulator');
export const loadLink = () => import('../link/bridge-link');
export const loadLuxon = () => import('luxon');
