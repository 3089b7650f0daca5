// Versioned cloud ⇄ bridge protocols, kept side by side; each version file is frozen once released.
export * as v1 from './v1';
