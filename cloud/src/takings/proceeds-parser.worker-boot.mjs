// Starts proceeds-parser.worker.ts in a worker thread: workers do not inherit the main thread's
// TypeScript loader, so the worker loads it itself.
import { tsImport } from 'tsx/esm/api';

await tsImport('./proceeds-parser.worker.ts', import.meta.url);
