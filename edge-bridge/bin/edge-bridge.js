#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so the bridge needs no build step on site.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
